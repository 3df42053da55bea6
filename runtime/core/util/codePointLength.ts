/** Length in code points (an astral character counts once). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Whether `text` has more than `limit` code points, read no further than needed to tell. */
export function longerThan(text: string, limit: number): boolean {
  // A code point is one or two UTF-16 units: most answers need no count.
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  return codePointLength(text) > limit;
}
