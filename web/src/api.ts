/**
 * Calls to the service from the page: same origin only, the key (when the learner entered one)
 * in the `X-API-Key` header, never in a URL. Every call is described as a URL and a curl command
 * with a placeholder where the key would go, for developers to copy.
 */

/** Where the service's parts are, as the server wrote them into the page (mount path included). */
export interface Bases {
  root: string;
  hanja: string;
  quiz: string;
}

/** Reads the bases from `<body data-…>` (the server writes them; no inline script is needed). */
export function readBases(): Bases {
  const data = document.body.dataset;
  return { root: data.root ?? "", hanja: data.hanja ?? "/hanja/v1", quiz: data.quiz ?? "/quiz/v1" };
}

const KEY_STORAGE = "hanja-page-key";

/** The tab's storage and the browser's (for what is kept on this computer); either may be refused (private mode). */
export function storages(): { tab?: Storage; computer?: Storage } {
  const get = (which: () => Storage) => {
    try {
      return which();
    } catch {
      return undefined;
    }
  };
  return { tab: get(() => sessionStorage), computer: get(() => localStorage) };
}

/** The API key entered in this tab (sessionStorage) or remembered on this computer (localStorage), if any. */
export function storedKey(): string | undefined {
  const { tab, computer } = storages();
  return tab?.getItem(KEY_STORAGE) ?? computer?.getItem(KEY_STORAGE) ?? undefined;
}

/** Whether the key is remembered on this computer (the learner asked for it). */
export function keyRemembered(): boolean {
  return Boolean(storages().computer?.getItem(KEY_STORAGE));
}

/**
 * Keeps the key for this tab, or with `remember` on this computer too (opt-in: a classroom computer
 * then needs it typed once); `undefined` forgets it in both.
 */
export function storeKey(key: string | undefined, remember = false): void {
  const { tab, computer } = storages();
  try {
    if (key) tab?.setItem(KEY_STORAGE, key);
    else tab?.removeItem(KEY_STORAGE);
    if (key && remember) computer?.setItem(KEY_STORAGE, key);
    else computer?.removeItem(KEY_STORAGE);
  } catch {
    // Storage refused or full: the key then lasts until the page is left.
  }
}

/** The quota a metered answer reported (rate-limit headers) or `/me` showed. */
export interface Quota {
  limit: number;
  remaining: number;
  /** Seconds until the quota is available again (429's Retry-After). */
  retryAfter?: number;
}

/** A made call, described for developers without the key. */
export interface Described {
  url: string;
  curl: string;
}

/** The answer to one call. */
export interface Answer<T> {
  status: number;
  body: T;
  quota?: Quota;
  /** Seconds to wait before sending again (`Retry-After`), when the answer says. */
  retryAfter?: number;
  request: Described;
}

/** A call that got no HTTP answer at all. */
export class NetworkError extends Error {}

/** The placeholder written where the key would be. */
export const KEY_PLACEHOLDER = "$HANJA_API_KEY";

/** Calls `path` (with `query`) on the service; `keyed` calls send the tab's key in X-API-Key. */
export async function call<T>(
  path: string,
  query: Record<string, string | number | undefined> = {},
  init: { method?: "GET" | "POST"; json?: unknown; keyed?: boolean } = {},
): Promise<Answer<T>> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, String(value));
  const search = params.toString();
  const url = new URL(path + (search ? `?${search}` : ""), location.origin).href;
  const key = init.keyed ? storedKey() : undefined;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (key) headers["X-API-Key"] = key;
  if (init.json !== undefined) headers["Content-Type"] = "application/json";
  const request = describe(url, init.method ?? "GET", Boolean(key), init.json);
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      credentials: "omit",
    });
  } catch (error) {
    throw new NetworkError(String(error));
  }
  const text = await response.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    throw new NetworkError(`not JSON (${response.status})`);
  }
  const retry = response.headers.get("Retry-After");
  return { status: response.status, body, quota: quotaOf(response.headers), retryAfter: retry === null ? undefined : Number(retry), request };
}

function quotaOf(headers: Headers): Quota | undefined {
  const limit = Number(headers.get("X-RateLimit-Limit") ?? Number.NaN);
  const remaining = Number(headers.get("X-RateLimit-Remaining") ?? Number.NaN);
  if (!Number.isFinite(limit) || !Number.isFinite(remaining)) return undefined;
  const retry = headers.get("Retry-After");
  return { limit, remaining, retryAfter: retry === null ? undefined : Number(retry) };
}

/** The URL and a curl command for a call; a keyed call shows the header with the placeholder. */
function describe(url: string, method: string, keyed: boolean, json: unknown): Described {
  const parts = ["curl"];
  if (method !== "GET") parts.push("-X", method);
  if (keyed) parts.push("-H", `"X-API-Key: ${KEY_PLACEHOLDER}"`);
  if (json !== undefined) parts.push("-H", shellQuote("Content-Type: application/json"), "--data", shellQuote(JSON.stringify(placeholders(json))));
  parts.push(shellQuote(url));
  return { url, curl: parts.join(" ") };
}

/** An application's fields as placeholders: the curl shown never carries what a person typed. */
function placeholders(json: unknown): unknown {
  if (json === null || typeof json !== "object") return json;
  return Object.fromEntries(Object.keys(json).map((name) => [name, `<${name}>`]));
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
