/** Entity tags: each encoding of a body is its own representation, with its own strong tag. */
import type { Encoding } from "./encoding.ts";

const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz" };

/** The strong ETag of one encoding of a body: each encoding is its own representation. */
export function variantTag(etag: string, encoding: Encoding | undefined): string {
  return `"${etag}${encoding ? ETAG_SUFFIX[encoding] : ""}"`;
}

/**
 * Whether `If-None-Match` names the tag of the representation selected for this request, the
 * body's `encoding` (RFC 9110 §13.1.2, weak comparison: a `W/` prefix is ignored). A tag of another
 * encoding does not match: a cache holding only that encoding could not use a 304 naming this one.
 */
export function matchesEtag(header: string | null, etag: string, encoding: Encoding | undefined): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const tag = variantTag(etag, encoding);
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}
