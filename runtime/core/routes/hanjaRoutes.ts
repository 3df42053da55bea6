/** Interface A (docs/rules.md "Interface A"): `GET /hanja`, `GET /hanja/{character}`, `GET /idioms`, `GET /words`, `GET /meta`. */
import type { IRequest } from "itty-router";
import type { LoadedData } from "../data/load.ts";
import { BODY_REVISION } from "../../format/dist.ts";
import { HUNUM_SOURCE, IDIOMS_SOURCE } from "../../format/records.ts";
import { searchCharacters } from "../hanja/searchCharacters.ts";
import { ApiError } from "../http/errors.ts";
import { keyValues, parsePath, parseQuery, queryOf, refuseEmptySegment } from "../http/params.ts";
import type { Send } from "../http/sender.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { cacheKey, pageCache, positionsCache, wordPositionsCache } from "../http/resultCache.ts";
import type { Route } from "./context.ts";
import { CHARACTER_PATH, HANJA_LIST_PARAMS, IDIOMS_LIST_PARAMS, PAGING, WORDS_LIST_PARAMS } from "./hanjaParams.ts";
import { runWordQuery, wordQuery, wordsItem } from "../words/wordQuery.ts";

/** The routes of interface A under `base` (links written with the host's `mountPath` in front). */
export function hanjaRoutes(base: string, data: LoadedData, sendBody: Send, mountPath = ""): Route[] {
  const etag = `${data.manifest.data_hash.slice(0, 32)}-r${BODY_REVISION}`;
  const caching = { etag };
  const chars = data.characters;
  // Made on the first /meta: its counts need the idioms, which a character detail does not.
  let metaBody: string | undefined;
  const meta = () =>
    (metaBody ??= JSON.stringify({
      ...data.meta,
      counts: data.counts,
      licenses: withTermsUrl(data.meta.licenses as Record<string, Record<string, unknown>>, `${mountPath}${base}/terms`),
    }));

  const encoder = new TextEncoder();
  const detailBytes: Uint8Array<ArrayBuffer>[] = [];
  const positions = positionsCache();
  const searches = { hanja: positions, idioms: positions, words: wordPositionsCache() };
  const pages = pageCache();
  const sources = { hanja: JSON.stringify(chars.source), idioms: JSON.stringify(IDIOMS_SOURCE), words: JSON.stringify(HUNUM_SOURCE) };
  const wordItem = wordsItem(data);
  /** One page of a list: the search runs once per distinct query, the page is built once per distinct page. */
  const list = (
    request: IRequest,
    kind: keyof typeof sources,
    search: readonly unknown[],
    run: () => number[],
    item: (position: number) => string | undefined,
    page: number,
    perPage: number,
  ) => {
    const searchKey = cacheKey([kind, ...search]);
    const pageKey = cacheKey([searchKey, page, perPage]);
    let body = pages.get(pageKey);
    if (body === undefined) {
      let positions = searches[kind].get(searchKey);
      if (positions === undefined) searches[kind].set(searchKey, (positions = run()));
      const start = (page - 1) * perPage;
      const slice = positions.slice(start, start + perPage).map(item);
      body = encoder.encode(
        `{"data":[${slice.join(",")}],"total":${positions.length},"page":${page},"per_page":${perPage},"pages":${Math.ceil(positions.length / perPage)},"source":${sources[kind]}}`,
      );
      pages.set(pageKey, body);
    }
    return sendBody(request, body, { caching, id: pageKey });
  };

  return [
    {
      method: "GET",
      path: `${base}/hanja`,
      handler: (request) => {
        refuseEmptySegment(request.url, "character", "give exactly one character, e.g. /hanja/水");
        const p = parseQuery(queryOf(request.url), HANJA_LIST_PARAMS);
        const search = keyValues(HANJA_LIST_PARAMS, p, PAGING);
        return list(request, "hanja", search, () => searchCharacters(chars, p.q, HANJA_LIST_PARAMS, p), chars.record, p.page, p.per_page);
      },
    },
    {
      method: "GET",
      path: `${base}/hanja/:character`,
      handler: (request) => {
        const character = parsePath("character", request.params.character ?? "", CHARACTER_PATH).value;
        const position = chars.position(character);
        if (position === undefined)
          throw new ApiError(
            404,
            "not_found",
            `${character} (U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}) is not in the dataset`,
            "character",
          );
        // Each detail body's bytes are found (and checked) once, on first request.
        const bytes = (detailBytes[position] ??= chars.detailBytes(position));
        return sendBody(request, bytes, { caching, id: `detail:${position}` });
      },
    },
    {
      method: "GET",
      path: `${base}/idioms`,
      handler: (request) => {
        const p = parseQuery(queryOf(request.url), IDIOMS_LIST_PARAMS);
        const search = keyValues(IDIOMS_LIST_PARAMS, p, PAGING);
        return list(
          request,
          "idioms",
          search,
          () => searchIdioms(data.idioms, p.q),
          (position) => data.idioms.itemsA[position],
          p.page,
          p.per_page,
        );
      },
    },
    {
      method: "GET",
      path: `${base}/words`,
      handler: (request) => {
        const p = parseQuery(queryOf(request.url), WORDS_LIST_PARAMS);
        const query = wordQuery(p.q, p.char);
        const search = keyValues(WORDS_LIST_PARAMS, p, PAGING);
        return list(request, "words", search, () => runWordQuery(data.words, query), wordItem, p.page, p.per_page);
      },
    },
    { method: "GET", path: `${base}/meta`, handler: (request) => sendBody(request, meta(), { caching }) },
    {
      method: "GET",
      path: `${base}/terms`,
      handler: (request) => sendBody(request, data.terms, { caching, contentType: "text/markdown; charset=utf-8" }),
    },
  ];
}

/** The licences of /meta with `url` set to the served terms for the two they hold: the idiom terms and, at their end, the dictionary's notice. */
function withTermsUrl(licenses: Record<string, Record<string, unknown>>, url: string): Record<string, unknown> {
  const served: Record<string, unknown> = { ...licenses, idioms: { ...(licenses.idioms ?? {}), url } };
  if (licenses.hanja_dictionary !== undefined) served.hanja_dictionary = { ...licenses.hanja_dictionary, url };
  return served;
}
