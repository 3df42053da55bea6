/**
 * Interface A (docs/rules.md "Interface A"): `GET /hanja`, `GET /hanja/{character}`, `GET /hanja/{character}/strokes`, `GET /idioms`,
 * `GET /words`, `GET /meta`, `GET /terms`, and the reader's `GET`/`POST /read` (`read.ts`). Public and cacheable; a repeated target is answered from its
 * remembered body without routing (`handler.ts`).
 */
import { BODY_REVISION } from "../../format/dist.ts";
import { HUNUM_SOURCE, IDIOMS_SOURCE } from "../../format/records.ts";
import { CACHED, headers, ok, problem, shared } from "../docs/responses.ts";
import type { Operation as DocOperation, Response } from "../docs/types.ts";
import { radicalList } from "../hanja/radicals.ts";
import { searchCharacters } from "../hanja/searchCharacters.ts";
import { ApiError } from "../http/errors.ts";
import { keyValues } from "../http/params.ts";
import type { RequestLike } from "../http/reply.ts";
import { cacheKey, pageCache, positionsCache } from "../http/resultCache.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { CHARACTER_PATH, HANJA_LIST_PARAMS, IDIOMS_LIST_PARAMS, PAGING, WORDS_LIST_PARAMS, wordQuery } from "../routes/hanjaParams.ts";
import { runWordQuery, wordsItem } from "../words/wordQuery.ts";
import { type Interface, type OperationDoc, defineOperation } from "./operation.ts";
import { readOperations } from "./read.ts";
import { runInSlices } from "../read/slices.ts";

const ALL_GET = "Also answers `HEAD`; other methods: `405` with `Allow`.";

const CACHING =
  "Public and cacheable: `Cache-Control: public, max-age=86400` and a strong `ETag`; send `If-None-Match` to get `304`. " +
  "Bodies of 1 KiB or more are compressed (brotli or gzip, by the client's Accept-Encoding) when the client accepts it.";

/** What every interface-A operation can answer besides its own responses. */
function cachedResponses(success: Response, errors: Record<string, Response> = {}): DocOperation["responses"] {
  return { "200": success, "304": shared("NotModified"), ...errors, "500": shared("InternalError") };
}

const badParameter = (what: string) => problem(400, `Invalid parameter: ${what}. \`param\` names it.`, { codes: ["invalid_parameter"] });
const badListParameter = badParameter("a malformed or out-of-bounds value, a parameter given twice, or `q` over 80 code points");

/** The reference text of an interface-A operation: tag, no credentials, GET and HEAD only. */
function doc(fields: Omit<OperationDoc, "tags" | "security" | "pathNote">): OperationDoc {
  return { ...fields, tags: ["Characters"], security: [{}], pathNote: ALL_GET };
}

/** The operations of interface A (links written with the host's `mountPath` in front). */
export const hanjaInterface: Interface = (ctx) => {
  const { base, bases, data, services } = ctx;
  const etag = `${data.manifest.data_hash.slice(0, 32)}-r${BODY_REVISION}`;
  const caching = { etag };
  const chars = data.characters;
  const send = services.sendBody;
  // Made on the first /meta: its counts need the idioms, which a character detail does not.
  let metaBody: string | undefined;
  let radicalsBody: string | undefined;
  const meta = () =>
    (metaBody ??= JSON.stringify({
      ...data.meta,
      counts: data.counts,
      licenses: withTermsUrl(data.meta.licenses as Record<string, Record<string, unknown>>, `${bases.mountPath}${base}/terms`),
    }));

  const encoder = new TextEncoder();
  const detailBytes: Uint8Array<ArrayBuffer>[] = [];
  const positions = positionsCache(services.caches.searches);
  const searches = { hanja: positions, idioms: positions, words: positionsCache(services.caches.wordSearches) };
  const pages = pageCache(services.caches.pages);
  const sources = { hanja: JSON.stringify(chars.source), idioms: JSON.stringify(IDIOMS_SOURCE), words: JSON.stringify(HUNUM_SOURCE) };
  const wordItem = wordsItem(data);
  /** One page of a list: the search runs once per distinct query, the page is built once per distinct page. */
  const list = (
    request: RequestLike,
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
    return send(request, body, { caching, id: pageKey });
  };

  return [
    defineOperation({
      method: "GET",
      path: "/hanja",
      parameters: HANJA_LIST_PARAMS,
      metering: "public",
      doc: doc({
        operationId: "searchCharacters",
        summary: "Search characters",
        description:
          "Searches the Han characters with Korean readings, with filters and paging. All parameters are optional and AND-ed.\n\n" +
          "Matching of `q`: one Han character → that character; a code point (`U+6C34`, `u+6c34`, `U 6C34` since an unencoded `+` arrives as a space, or bare hex with at least one digit, `6C34`) → that character; " +
          "Hangul (runs of spaces read as one) → characters with it as one of their `hunum` (`물 수`: 훈, a space, 음), then characters whose `readings` contain it exactly, then characters with a `hun` equal to it (`물` → 水), then characters whose `meaning_ko` or a `hun` contains it; " +
          "other text → full-text search of `definition_en` and `meaning_ko` (word prefix, all words must match; when nothing matches, one typo per word of four letters or more is allowed: a letter added, left out or changed; two letters swapped count as two).\n\n" +
          "Order: empty `q` → code point order. Otherwise relevance (full text: score, education hanja boosted ×1.5; Hangul: 훈음 matches, then reading matches, then 훈 matches — education hanja of all three first, then name hanja, then the rest — then gloss or 훈 containing it); " +
          "ties go to education hanja first, then starters, then name hanja, then fewer strokes, then code point. " +
          "`sort` lists the same matches in another order instead: `reading` (가나다 order of `reading`, then fewer strokes, then code point), `strokes` (then `reading`, then code point) or `codepoint`.\n\n" +
          "A valid search without match, or a page past the end, is `200` with empty `data`; use `total` and `pages` to know whether more pages exist. " +
          "`/hanja/` is this list: a trailing slash is ignored on every path.\n\n" +
          CACHING,
        responses: cachedResponses(ok("A page of characters.", "HanjaList", headers(CACHED)), { "400": badListParameter }),
        examples: [
          { description: "English definition, full text", query: { q: "water", per_page: "5" } },
          { description: "Characters read 수 with 4 strokes", query: { q: "수", strokes: "4" } },
          { description: "By code point", query: { q: "U+6C34" } },
          { description: "Starters under radical 85 (水), page 1", query: { radical_number: "85", starter: "1" } },
          { description: "The middle-school 900 in 가나다 order, first page", query: { school_level: "middle", sort: "reading", per_page: "50" } },
        ],
      }),
      handler: (request, _ctx, p) => {
        const search = keyValues(HANJA_LIST_PARAMS, p, PAGING);
        return list(request, "hanja", search, () => searchCharacters(chars, p.q, HANJA_LIST_PARAMS, p, p.sort), chars.record, p.page, p.per_page);
      },
    }),
    defineOperation({
      method: "GET",
      path: "/hanja/{character}",
      parameters: { character: CHARACTER_PATH },
      metering: "public",
      doc: doc({
        operationId: "getCharacter",
        summary: "One character with its idioms and words",
        description:
          "The Hanja record of one character plus `idioms`: every idiom containing the character, in idx order; then `words`, the first three words holding it " +
          "(in the order `GET /words?char=` lists them all), and `word_count`, how many there are.\n\n" +
          "The path segment is percent-decoded and must be exactly one code point (astral characters included); no Unicode normalisation, " +
          "so the CJK compatibility ideographs of the dataset are distinct records.\n\n" +
          CACHING,
        responses: cachedResponses(ok("The detail record.", "HanjaDetail", headers(CACHED)), {
          "400": badParameter("the segment is not exactly one character, or not valid percent-encoded UTF-8"),
          "404": problem(404, "The character is not in the dataset (`param: character`; `detail` names the code point).", { codes: ["not_found"] }),
        }),
        examples: [{ description: "水 (water)", path: { character: "水" } }],
      }),
      handler: (request, _ctx, { character }) => {
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
        return send(request, bytes, { caching, id: `detail:${position}` });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/hanja/{character}/strokes",
      parameters: { character: CHARACTER_PATH },
      metering: "public",
      doc: doc({
        operationId: "getCharacterStrokes",
        summary: "One character's strokes, in writing order",
        description:
          "Each stroke's `outline` and `median` in writing order, and the glyph's `form`: `ko` (animCJK), else `zh` (Make Me a Hanzi), else `ja` (KanjiVG: " +
          "centre lines only, `outline` null); for `zh` and `ja` the Korean order may differ. Arphic Public License (`ko`, `zh`) or CC BY-SA 3.0 (`ja`): keep " +
          "`source.attribution`. Read on the first request; hosts without the stroke data answer `404`.\n\n" +
          CACHING,
        responses: cachedResponses(ok("The strokes.", "HanjaStrokes", headers(CACHED)), {
          "400": badParameter("the segment is not exactly one character, or not valid percent-encoded UTF-8"),
          "404": problem(404, "Not in the dataset, no strokes, or no stroke data on this host (`param: character`; `detail` says which).", {
            codes: ["not_found"],
          }),
        }),
        examples: [{ description: "水 (water)", path: { character: "水" } }],
      }),
      handler: (request, _ctx, { character }) => {
        const position = chars.position(character);
        const named = `${character} (U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")})`;
        if (position === undefined) throw new ApiError(404, "not_found", `${named} is not in the dataset`, "character");
        const lines = data.strokes;
        if (lines === undefined)
          throw new ApiError(404, "not_found", `this host serves no stroke data (its data leaves strokes.jsonl out), so none for ${named}`, "character");
        const line = lines.get(character);
        if (line === undefined) throw new ApiError(404, "not_found", `${named} has no strokes in the stroke data`, "character");
        return send(request, line, { caching, id: `strokes:${position}` });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/idioms",
      parameters: IDIOMS_LIST_PARAMS,
      metering: "public",
      doc: doc({
        operationId: "searchIdioms",
        summary: "Search idioms",
        description:
          "Searches the Korean four-character idioms. `q` matches `hanja` and `hangul` as substrings, `chosung` (initial consonants) when `q` is made only of them " +
          "(`ㄱㄱㄴㅁ`, prefix or substring), and `meaning` as full text (word prefix, all words must match).\n\n" +
          "Order: exact `hanja` or `hangul` match first, then prefix matches (hanja, hangul, initial consonants), then other substring matches, " +
          "then meaning matches by relevance; idx order within each tier. Empty `q`: every idiom in idx order.\n\n" +
          "Items carry `idx` as a string (as published) and `chosung`. The character filters (`strokes`, `radical_number`, `starter`) do not apply here and are ignored.\n\n" +
          CACHING,
        responses: cachedResponses(ok("A page of idioms.", "IdiomListA", headers(CACHED)), { "400": badListParameter }),
        examples: [
          { description: "By initial consonants", query: { q: "ㄱㄱㄴㅁ" } },
          { description: "By hangul", query: { q: "각골" } },
          { description: "By meaning", query: { q: "은혜" } },
        ],
      }),
      handler: (request, _ctx, p) => {
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
    }),
    defineOperation({
      method: "GET",
      path: "/words",
      parameters: WORDS_LIST_PARAMS,
      metering: "public",
      doc: doc({
        operationId: "searchWords",
        summary: "Search words",
        description:
          "The hanja words of libhangul's hanja dictionary made only of the dataset's characters (234,308). Give `q` or `char` (neither: every word, in the listed order):\n\n" +
          "- `q`, Han characters: the word written so, then the words starting with it, then the words containing it; Hangul syllables: the same against each reading of every word.\n" +
          "- `char`, one Han character: every word holding it.\n\n" +
          "Each item has `hanja`, `readings` (the reading the word is read with first, as `POST /read` reads it: the standard reading of 표준국어대사전, 先生 `선생` before `선상`, 電車 `전차` before `전거`, 歷史 `역사` before the North's `력사`, never a 사이시옷 form like 수돗 before 수도), the dictionary's `note` and `idiom_idx`, " +
          "the idx of the project's idiom written the same. Within each group words are listed in one order: words before place names (note `지명`), then the education hanja's core words (the project's reviewed list of up to five common words per character: 學 → 學生, 學校, …), " +
          "then shorter words, then words made only of the 1,800 education hanja, then words that more of the other words contain, then code point order; `char` lists the character's own core words first.\n\n" +
          "A search without match, or a page past the end, is `200` with empty `data`.\n\n" +
          CACHING,
        responses: cachedResponses(ok("A page of words.", "WordList", headers(CACHED)), {
          "400": badParameter(
            "both `q` and `char`; `q` not only Han characters or only Hangul syllables, or over 40 code points; `char` more than one character; a malformed or out-of-bounds page, or a parameter given twice",
          ),
        }),
        examples: [
          { description: "The words of 水", query: { char: "水", per_page: "5" } },
          { description: "By hangul", query: { q: "역사" } },
          { description: "By hanja", query: { q: "水道" } },
        ],
      }),
      handler: (request, _ctx, p) => {
        const query = wordQuery(p.q, p.char);
        const search = keyValues(WORDS_LIST_PARAMS, p, PAGING);
        const answer = () => list(request, "words", search, () => runWordQuery(data.words, query), wordItem, p.page, p.per_page);
        // A request before the words are indexed (the reader's preparation does it soon after the
        // start) waits for them indexed in slices: at once, the other requests waited behind it (see
        // RESULTS.md, "The word index built in slices").
        return data.wordsIndexed ? answer() : runInSlices(data.wordsInSteps()).then(answer);
      },
    }),
    defineOperation({
      method: "GET",
      path: "/radicals",
      metering: "public",
      doc: doc({
        operationId: "listRadicals",
        summary: "The Kangxi radicals",
        description:
          "The 214 Kangxi radicals in radical order: number, the radical as a unified ideograph, its strokes and how many characters have it, " +
          "with the path of those characters (`/hanja?radical_number=`, whose `total` is that count). Browse the characters by radical from here. " +
          "Takes no parameters; unknown parameters are ignored.\n\n" +
          CACHING,
        responses: cachedResponses(ok("Every radical.", "RadicalList", headers(CACHED))),
        examples: [{ description: "Every radical" }],
      }),
      // Made once, on the first call.
      handler: (request) => send(request, (radicalsBody ??= JSON.stringify(radicalList(chars, `${bases.mountPath}${base}/hanja`))), { caching }),
    }),
    defineOperation({
      method: "GET",
      path: "/meta",
      metering: "public",
      doc: doc({
        operationId: "getMeta",
        summary: "Dataset metadata",
        description:
          "API version, data versions, record counts measured from the loaded data, build time and licences. " +
          "Takes no parameters; unknown parameters are ignored, so the `400` the published interface lists for this operation does not occur.\n\n" +
          CACHING,
        responses: cachedResponses(ok("The metadata.", "Meta", headers(CACHED))),
        examples: [{ description: "Metadata" }],
      }),
      handler: (request) => send(request, meta(), { caching }),
    }),
    defineOperation({
      method: "GET",
      path: "/terms",
      metering: "public",
      doc: doc({
        operationId: "getTerms",
        summary: "Idiom terms",
        description: `The terms of the project's own content (idioms and Korean glosses), as Markdown. \`/meta\` links here.\n\n${CACHING}`,
        responses: cachedResponses({
          description: "The terms.",
          headers: headers(CACHED),
          content: { "text/markdown": { schema: { type: "string" } } },
        }),
        examples: [{ description: "The terms" }],
      }),
      handler: (request) => send(request, data.terms, { caching, contentType: "text/markdown; charset=utf-8" }),
    }),
    ...readOperations(ctx, caching),
  ];
};

/** The licences of /meta with `url` set to the served terms for the two they hold: the idiom terms and, at their end, the dictionary's notice. */
function withTermsUrl(licenses: Record<string, Record<string, unknown>>, url: string): Record<string, unknown> {
  const served: Record<string, unknown> = { ...licenses, idioms: { ...(licenses.idioms ?? {}), url } };
  if (licenses.hanja_dictionary !== undefined) served.hanja_dictionary = { ...licenses.hanja_dictionary, url };
  return served;
}
