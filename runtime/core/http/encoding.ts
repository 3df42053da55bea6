/**
 * Content codings: which one a client gets (`Accept-Encoding`), and the compressed bytes. A body
 * with a strong ETag must compress to the same bytes on every runtime, so its gzip form is made by
 * `fixedGzip.ts`; untagged bodies use the faster compressor a runtime passes in.
 */

/** A content coding the service answers with (none: the body as it is). */
export type Encoding = "br" | "gzip";

/** Compressors a runtime can offer beyond the Web `CompressionStream` (which has gzip only). */
export interface Compressors {
  /** Brotli; entry points pass node:zlib's (Node, Bun and Deno all have it). */
  brotli?: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** Gzip; default: the Web `CompressionStream`. Entry points pass node:zlib's, which is quicker. */
  gzip?: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/**
 * The coding to answer with: the accepted one (q > 0) with the highest q, brotli winning ties when
 * it is available; `*` stands for any coding not named. Undefined: send the body as it is.
 */
export function chooseEncoding(header: string | null, brotli: boolean): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(coding.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: string) => q.get(coding) ?? q.get("*") ?? 0;
  const br = brotli ? weight("br") : 0;
  const gzip = weight("gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : undefined;
}

const encoder = new TextEncoder();

/**
 * The body's bytes in `encoding`. A tagged body's gzip form carries a strong ETag, so it must be the
 * same bytes wherever it is made (fixedGzip.ts, imported on the first such body). It is made once
 * per body; untagged bodies (interface B) use the faster native compressor.
 */
export async function encodeBody(
  encoding: Encoding,
  body: string | Uint8Array<ArrayBuffer>,
  tagged: boolean,
  compressors: Compressors,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  if (encoding === "gzip" && tagged) return (await import("./fixedGzip.ts")).fixedGzip(bytes);
  const compress = encoding === "br" ? compressors.brotli : compressors.gzip;
  return compress ? new Uint8Array(await compress(bytes)) : gzipBytes(bytes);
}

async function gzipBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
