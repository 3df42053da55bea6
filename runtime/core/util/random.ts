/** Randomness for quizzes and keys: the platform CSPRNG, or a seeded generator (`seed`, tests). */

export interface Random {
  /** A uniformly random integer in [0, n). */
  int(n: number): number;
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG output is drawn in blocks: one getRandomValues call per 256 integers.
const pool = new Uint32Array(256);
let poolNext = pool.length;
function nextUint32(): number {
  if (poolNext === pool.length) {
    crypto.getRandomValues(pool);
    poolNext = 0;
  }
  return pool[poolNext++] ?? 0;
}

/** `crypto.getRandomValues`, with rejection sampling so `int` has no modulo bias. */
export const cryptoRandom: Random = {
  int(n) {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`random: bad range ${n}`);
    const limit = Math.floor(2 ** 32 / n) * n;
    for (;;) {
      const value = nextUint32();
      if (value < limit) return value % n;
    }
  },
  bytes(n) {
    // From the same pooled block as `int` (four bytes per drawn integer).
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let value = nextUint32();
      for (let j = i; j < i + 4 && j < n; j++, value >>>= 8) out[j] = value & 0xff;
    }
    return out;
  },
};

/**
 * A deterministic generator (sfc32): the same seed gives the same quizzes. Serves `/quiz?seed=`
 * (a draw a teacher can repeat, not a secret) and the tests; never keys or quiz ids.
 */
export function seededRandom(seed: number): Random {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    int: (n) => Math.floor((next() / 2 ** 32) * n),
    bytes: (n) => Uint8Array.from({ length: n }, () => next() & 0xff),
  };
}

/** `length` base62 characters from `random` (unbiased: rejection of bytes ≥ 248). */
export function randomBase62(random: Random, length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = random.bytes(length * 2);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const byte = bytes[i] as number;
      if (byte < 248) out += BASE62[byte % 62];
    }
  }
  return out;
}
