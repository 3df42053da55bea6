/** The parts of a request's URL the service reads, taken from the URL string without parsing it. */

/** Path and query of an absolute URL string without parsing it (`http://h:1/a/b?q#f` → `/a/b?q`). */
export function targetOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const hash = url.indexOf("#", start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/** The path of an absolute URL string without parsing it (`http://h:1/a/b?q` → `/a/b`). */
export function pathOf(url: string): string {
  const target = targetOf(url);
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
