/**
 * SHA-256 of a text, hex. Synchronous (@noble/hashes, audited, pure JS): Web Crypto's digest is
 * asynchronous and costs a thread-pool round trip, which a metered request cannot afford.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** The SHA-256 of `text` (as UTF-8), in lower-case hex. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
