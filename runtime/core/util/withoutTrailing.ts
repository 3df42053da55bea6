/**
 * `text` without the copies of `char` (one UTF-16 unit) at its end: `/\/+$/` does the same, but a
 * pattern ending in a quantified run is retried from every position of a long run inside the text.
 */
export function withoutTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}
