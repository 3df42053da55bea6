/**
 * The lengths of the dictionary's words by their first two characters, as segmentation asks for
 * them: once for every character of a text after the first. One table of typed arrays keyed by
 * the pair of code points (open addressing), where a map per first character, each holding a map
 * of second characters, took two hashed lookups and a good part of a reading's time (see
 * RESULTS.md, "The reader's answer as bytes").
 */

/** The length bits of a pair (bit `n` set: a word of `n` characters starts with it), or 0. */
export class PairLengths {
  private firsts = new Uint32Array(4096);
  private seconds = new Uint32Array(4096);
  private bits = new Uint32Array(4096);
  private used = 0;

  /** The bits kept for the pair (0 when none). */
  get(first: number, second: number): number {
    const mask = this.firsts.length - 1;
    for (let slot = slotOf(first, second, mask); ; slot = (slot + 1) & mask) {
      const held = this.firsts[slot] as number;
      if (held === 0) return 0;
      if (held === first && this.seconds[slot] === second) return this.bits[slot] as number;
    }
  }

  /** Adds `bits` to the pair's (code points above 0: 0 marks an empty slot). */
  add(first: number, second: number, bits: number): void {
    if (2 * (this.used + 1) > this.firsts.length) this.grow();
    const mask = this.firsts.length - 1;
    for (let slot = slotOf(first, second, mask); ; slot = (slot + 1) & mask) {
      const held = this.firsts[slot] as number;
      if (held === 0) {
        this.firsts[slot] = first;
        this.seconds[slot] = second;
        this.bits[slot] = bits;
        this.used++;
        return;
      }
      if (held === first && this.seconds[slot] === second) {
        this.bits[slot] = (this.bits[slot] as number) | bits;
        return;
      }
    }
  }

  /** Twice the slots, the pairs placed anew (kept at most half full, so that a probe ends soon). */
  private grow(): void {
    const { firsts, seconds, bits } = this;
    this.firsts = new Uint32Array(2 * firsts.length);
    this.seconds = new Uint32Array(2 * firsts.length);
    this.bits = new Uint32Array(2 * firsts.length);
    this.used = 0;
    for (let slot = 0; slot < firsts.length; slot++) {
      if (firsts[slot] !== 0) this.add(firsts[slot] as number, seconds[slot] as number, bits[slot] as number);
    }
  }
}

/** The pair's first slot: both code points mixed (multiplied, their high bits folded down) into the table's size. */
function slotOf(first: number, second: number, mask: number): number {
  let hash = Math.imul(first, 0x9e3779b1) ^ second;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  return (hash ^ (hash >>> 13)) & mask;
}
