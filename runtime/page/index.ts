/**
 * `hanja-api/page`: the page for people (search, study and quiz in the browser), for `createApp`'s
 * `page` option: `createApp({ dist, page })` serves it at the service's root (`GET /` to browsers,
 * `/page/app.js`, `/page/app.css`). The server programs and `createBundledApp` mount it; the
 * portable core alone does not carry it.
 */
export { pageInterface as page } from "./page.ts";
