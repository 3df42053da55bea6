/**
 * Strings packed end to end in typed arrays, and typed arrays cut from one buffer: how the words'
 * index is made without a string per word, and without leaving its working arrays behind.
 */

/**
 * Strings held end to end in one buffer of UTF-16 code units, string `p` being
 * `units[starts[p], starts[p + 1])`: 234,308 words cost two typed arrays, not a string each.
 */
export interface PackedStrings {
  units: Uint16Array;
  /** Where each string starts, and at the end where the last one ends (`count + 1` numbers). */
  starts: Uint32Array;
}

/** `values` packed. */
export function packStrings(values: readonly string[]): PackedStrings {
  const packer = new Packer();
  for (const value of values) {
    for (let i = 0; i < value.length; i++) packer.push(value.charCodeAt(i));
    packer.close();
  }
  return packer.packed();
}

/** The string at `position` of a packed list. */
export function unpack(packed: PackedStrings, position: number): string {
  return unitsToString(packed.units, packed.starts[position] as number, packed.starts[position + 1] as number);
}

/**
 * Code units `[from, to)` of `units` as a string: decoded in one call where the runtime's
 * TextDecoder reads UTF-16 (Node, Bun, Deno: no garbage but the string), else a chunk at a time
 * (an argument list has a limit; `decoder: null` takes that way). Typed arrays are little-endian on
 * every platform the runtime serves.
 */
export function unitsToString(units: Uint16Array, from = 0, to = units.length, decoder: TextDecoder | null = utf16): string {
  if (decoder !== null) return decoder.decode(units.subarray(from, to));
  if (to - from <= CHUNK) return String.fromCharCode.apply(null, units.subarray(from, to) as unknown as number[]);
  const parts: string[] = [];
  for (let at = from; at < to; at += CHUNK) {
    parts.push(String.fromCharCode.apply(null, units.subarray(at, Math.min(at + CHUNK, to)) as unknown as number[]));
  }
  return parts.join("");
}

const utf16 = (() => {
  try {
    return new TextDecoder("utf-16le");
  } catch {
    return null;
  }
})();
const CHUNK = 8192;

/**
 * Packs strings a code unit at a time into buffers made the size the caller expects (`strings`,
 * `units`), which double if they fill: the buffers a decoder outgrew would be held until the next
 * collection, and the process keeps the memory they took.
 */
export class Packer {
  private units: Uint16Array;
  private used = 0;
  private starts: Uint32Array;
  /** How many strings are closed. */
  count = 0;

  constructor(strings = 1 << 12, units = 1 << 16, memory: Scratch = NO_SCRATCH) {
    this.starts = memory.uint32(Math.max(strings, 1) + 1);
    this.units = memory.uint16(Math.max(units, 1));
  }

  /** Where the last closed string starts (0 before any). */
  get lastStart(): number {
    return this.count === 0 ? 0 : (this.starts[this.count - 1] as number);
  }

  /** How many code units are written. */
  get length(): number {
    return this.used;
  }

  unitAt(at: number): number {
    return this.units[at] as number;
  }

  codePointAt(at: number): number {
    return codePointIn(this.units, at);
  }

  push(unit: number): void {
    if (this.used === this.units.length) this.units = grown(this.units);
    this.units[this.used++] = unit;
  }

  /** Ends the string being written. */
  close(): void {
    if (this.count + 1 === this.starts.length) this.starts = grown(this.starts);
    this.starts[++this.count] = this.used;
  }

  /** What is packed (views of the buffers, which are the size asked for when the caller's sizes were right). */
  packed(): PackedStrings {
    return { units: this.units.subarray(0, this.used), starts: this.starts.subarray(0, this.count + 1) };
  }
}

/** The code point at `units[at]`, a surrogate pair read whole. */
export function codePointIn(units: Uint16Array, at: number): number {
  const unit = units[at] as number;
  return (unit & 0xfc00) === 0xd800 ? ((unit - 0xd800) << 10) + ((units[at + 1] as number) - 0xdc00) + 0x10000 : unit;
}

function grown<T extends Uint16Array | Uint32Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * Typed arrays cut in turn from one buffer, for working arrays that are dropped together: one
 * allocation, which the allocator returns to the system whole when it is collected, where a
 * dozen arrays of a megabyte or two each leave the process holding their memory (Node's RSS after
 * the words were indexed: see RESULTS.md, "Node's memory after load"). An array that no longer fits
 * is made on its own.
 */
export class Scratch {
  private used = 0;

  constructor(private readonly buffer: ArrayBuffer = new ArrayBuffer(0)) {}

  /** A scratch buffer for arrays of these lengths (in bytes, each rounded up to 8). */
  static sized(bytes: readonly number[]): Scratch {
    return new Scratch(new ArrayBuffer(bytes.reduce((sum, n) => sum + align(n), 0)));
  }

  uint16(length: number): Uint16Array {
    const start = this.take(length * 2);
    return start === -1 ? new Uint16Array(length) : new Uint16Array(this.buffer, start, length);
  }

  uint32(length: number): Uint32Array {
    const start = this.take(length * 4);
    return start === -1 ? new Uint32Array(length) : new Uint32Array(this.buffer, start, length);
  }

  float64(length: number): Float64Array {
    const start = this.take(length * 8);
    return start === -1 ? new Float64Array(length) : new Float64Array(this.buffer, start, length);
  }

  /** Where `bytes` more start in the buffer, or -1 when they do not fit. */
  private take(bytes: number): number {
    if (this.used + bytes > this.buffer.byteLength) return -1;
    const start = this.used;
    this.used += align(bytes);
    return start;
  }
}

function align(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

/** No scratch buffer: every array made on its own. */
export const NO_SCRATCH = new Scratch();
