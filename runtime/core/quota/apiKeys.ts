/**
 * API key format and hashing (docs/rules.md "Interface B"): `hj_` + 32 base62 characters (≈190 random bits from the
 * CSPRNG), shown once; the store keeps only its SHA-256 and a public id.
 */
import { sha256Hex } from "../util/sha256Hex.ts";
import { type Random, randomBase62 } from "../util/random.ts";

export const KEY_PREFIX = "hj_";
/** How many base62 characters follow the prefix. */
export const KEY_BODY_LENGTH = 32;
export const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY_LENGTH}}$`);

/** A new key and its public id. */
export function newApiKey(random: Random): { key: string; id: string } {
  return { key: `${KEY_PREFIX}${randomBase62(random, KEY_BODY_LENGTH)}`, id: `key_${randomBase62(random, 12)}` };
}

/** SHA-256 of the key, hex (what the store keeps). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Compares two secrets in time independent of where they differ (their SHA-256 digests are compared). */
export function constantTimeEqual(a: string, b: string): boolean {
  const [x, y] = [hashApiKey(a), hashApiKey(b)];
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x.charCodeAt(i) ^ y.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether an operator's admin token is long enough not to be guessed (16 characters, not counting
 * spaces around it): the one rule of `ADMIN_TOKEN` and of `createApp`'s `adminToken`.
 */
export function strongAdminToken(token: unknown): token is string {
  return typeof token === "string" && token.trim().length >= 16;
}
