/**
 * API key format and hashing (SPEC §4): `hj_` + 32 base62 characters (≈190 random bits from the
 * CSPRNG), shown once; the store keeps only its SHA-256 and a public id.
 */
import { type Random, randomBase62 } from "../quiz/random.ts";

export const KEY_PREFIX = "hj_";
export const KEY_PATTERN = /^hj_[0-9A-Za-z]{32}$/;

/** A new key and its public id. */
export function newApiKey(random: Random): { key: string; id: string } {
  return { key: `${KEY_PREFIX}${randomBase62(random, 32)}`, id: `key_${randomBase62(random, 12)}` };
}

/** SHA-256 of the key, hex (Web Crypto). */
export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares two secrets in time independent of where they differ (their SHA-256 digests are compared). */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([hashApiKey(a), hashApiKey(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x.charCodeAt(i) ^ y.charCodeAt(i);
  return diff === 0;
}
