/**
 * The page for people (`GET /`): search, study and quiz in the browser, built from web/src
 * (see web/build.ts) and served from memory. Browsers get it; a client that does not ask for HTML
 * gets the 404 problem it always got, so API clients and their tests see no change.
 *
 * Outside the portable core: the server programs mount it (`createApp`'s `page` option), as an
 * embedding may (`hanja-api/page`), so an app made without it carries none of the page's bytes.
 */
import { PAGE_CSS, PAGE_JS } from "../../web/assets.generated.ts";
import { ApiError } from "../core/http/errors.ts";
import type { RequestLike } from "../core/http/reply.ts";
import { type Interface, defineOperation } from "../core/operations/operation.ts";
import { sha256Hex } from "../core/util/sha256Hex.ts";

/** Where the page's assets are served, below the service's root. */
export const PAGE_ASSETS = { js: "/page/app.js", css: "/page/app.css" } as const;

/**
 * The page's Content-Security-Policy: scripts, styles, images and calls from the service's own
 * origin only (no inline script or style; the one `data:` image is the empty favicon), no plugins,
 * and no framing by another origin (the page holds an API key field).
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/** The page and its assets, for an app serving the interfaces at `hanjaBase` and `quizBase` under `mountPath`; left out of the reference. */
export const pageInterface: Interface = ({ bases, services }) => {
  const { sendBody } = services;
  const html = pageHtml(bases);
  const page = tagged(html);
  const js = tagged(PAGE_JS);
  const css = tagged(PAGE_CSS);
  return [
    defineOperation({
      method: "GET",
      path: "/",
      metering: "public",
      handler: (request) => {
        if (!acceptsHtml(request)) {
          throw new ApiError(
            404,
            "not_found",
            `No such route. See ${bases.mountPath}/docs for the API reference (this address serves a page to browsers, which ask for text/html).`,
            undefined,
            { Vary: "Accept" },
          );
        }
        return sendBody(request, page.body, {
          caching: { etag: page.etag },
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": PAGE_CSP, Vary: "Accept" },
          replay: false,
        });
      },
    }),
    defineOperation({
      method: "GET",
      path: PAGE_ASSETS.js,
      metering: "public",
      handler: (request) => sendBody(request, js.body, { caching: { etag: js.etag }, contentType: "text/javascript; charset=utf-8" }),
    }),
    defineOperation({
      method: "GET",
      path: PAGE_ASSETS.css,
      metering: "public",
      handler: (request) => sendBody(request, css.body, { caching: { etag: css.etag }, contentType: "text/css; charset=utf-8" }),
    }),
  ];
};

/**
 * Whether the request asks for HTML: its `Accept` names `text/html` (or XHTML) with a weight above
 * zero, as every browser's navigation does. `*\/*` alone (curl, fetch) is not asking for a page.
 */
export function acceptsHtml(request: RequestLike): boolean {
  const accept = request.headers.get("accept");
  if (!accept) return false;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (type !== "text/html" && type !== "application/xhtml+xml") continue;
    const q = params.find((param) => param.startsWith("q="));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** The page's document: a shell the script fills, with the bases in data attributes (no inline script). */
function pageHtml({ hanjaBase, quizBase, mountPath }: { hanjaBase: string; quizBase: string; mountPath: string }): string {
  const attr = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>한자와 사자성어 · Hanja API</title>
<meta name="description" content="Look up Han characters with Korean readings, study four-character idioms and take quizzes.">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${attr(mountPath)}${PAGE_ASSETS.css}">
<script defer src="${attr(mountPath)}${PAGE_ASSETS.js}"></script>
</head>
<body data-root="${attr(mountPath)}" data-hanja="${attr(mountPath + hanjaBase)}" data-quiz="${attr(mountPath + quizBase)}">
<noscript><p>This page needs JavaScript. 이 페이지는 자바스크립트가 필요합니다. The API reference: <a href="${attr(mountPath)}/docs">${attr(mountPath)}/docs</a></p></noscript>
</body>
</html>
`;
}

/** A body and its ETag, hashed on first use (SHA-256 in plain JavaScript of the whole page, which an app's start-up need not wait for: see RESULTS.md, "First answers when embedded"). */
function tagged(body: string): { body: string; readonly etag: string } {
  let etag: string | undefined;
  return {
    body,
    get etag() {
      return (etag ??= sha256Hex(body).slice(0, 32));
    },
  };
}
