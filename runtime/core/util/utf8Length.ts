const encoder = new TextEncoder();

/** The UTF-8 length of a text (the Content-Length a HEAD answer states for a body, the extra bytes of a quiz fragment). */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
