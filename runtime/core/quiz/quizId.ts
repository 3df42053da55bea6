/**
 * Gradeable quiz ids: a `quiz_id` carries what grading needs (the type, what was asked, the key of
 * the right option), when it was made and a nonce, signed with HMAC-SHA-256 (Web Crypto, so every
 * runtime signs alike) under the server's `QUIZ_SECRET`. Any instance with the secret grades a quiz
 * another made; nothing is stored. An id that was altered, made under another secret or another
 * data release, or older than `QUIZ_ID_TTL_SECONDS` is refused (`QuizIdError`; the route answers
 * `400` naming `quiz_id`).
 */
import type { Random } from "../util/random.ts";
import { QUIZ_TYPES, type QuizType } from "./types/index.ts";

/** How long a quiz can be graded after it was made: a day, a lesson and its homework. */
export const QUIZ_ID_TTL_SECONDS = 24 * 60 * 60;

/** What a quiz id carries. */
export interface QuizClaims {
  type: QuizType;
  /** `answer_format=typed`: graded against every standard answer, not a key. */
  typed: boolean;
  /** The key of the right option (1–6); 0 when typed. */
  key: number;
  /** The idiom (idiom types, `idiom_blank`) or character position asked about. */
  subject: number;
  /** `idiom_blank`: the position of the character left out; else 0. */
  blank: number;
}

const VERSION = 1;
const BODY = 20;
const MAC = 16;
const PREFIX = "qz_";

/** Why a quiz id cannot be graded, said to the client. */
export class QuizIdError extends Error {
  constructor(why: string) {
    super(`quiz_id ${why}; draw a new quiz with GET /quiz`);
    this.name = "QuizIdError";
  }
}

/** Signs and checks quiz ids. */
export interface QuizIds {
  /** An id for each quiz, in order. */
  sign(claims: readonly QuizClaims[]): Promise<string[]>;
  /** The claims of an id; a `QuizIdError` saying why it cannot be graded. */
  verify(id: unknown): Promise<QuizClaims>;
}

export interface QuizIdOptions {
  /**
   * The secrets: the first signs, every one verifies (a rotation keeps the old one here for a
   * day). Undefined: a random one of these ids, drawn on first use (a worker may draw random
   * numbers only while it handles a request).
   */
  secrets: readonly string[] | undefined;
  now: () => Date;
  /** Draws each id's nonce: two ids made in the same second for the same question differ. */
  random: Random;
  /** The data release (its hash, hex): an id made from other data is refused, its positions mean other things. */
  dataHash: string;
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Quiz ids signed and checked with `options.secrets`. */
export function createQuizIds(options: QuizIdOptions): QuizIds {
  const encoder = new TextEncoder();
  const hmacKey = (secret: Uint8Array<ArrayBuffer>) => crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  let imported: Promise<CryptoKey[]> | undefined;
  // Imported on the first quiz drawn with reveal=0 or the first grade, not when the app is made.
  const keys = () =>
    (imported ??= Promise.all(
      options.secrets === undefined ? [hmacKey(crypto.getRandomValues(new Uint8Array(32)))] : options.secrets.map((secret) => hmacKey(encoder.encode(secret))),
    ));
  const tag = Number.parseInt(options.dataHash.slice(0, 4), 16) || 0;
  const bad = (why: string) => new QuizIdError(why);

  return {
    async sign(claims) {
      const [key] = await keys();
      if (key === undefined) throw new Error("quiz ids: no secret");
      const seconds = Math.floor(options.now().getTime() / 1000);
      return Promise.all(
        claims.map(async (claim) => {
          const bytes = new Uint8Array(BODY + MAC);
          const view = new DataView(bytes.buffer);
          bytes[0] = VERSION;
          bytes[1] = QUIZ_TYPES.indexOf(claim.type);
          bytes[2] = claim.typed ? 1 : 0;
          bytes[3] = claim.key;
          view.setUint32(4, claim.subject);
          bytes[8] = claim.blank;
          view.setUint32(9, seconds);
          bytes.set(options.random.bytes(5), 13);
          view.setUint16(18, tag);
          const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, bytes.subarray(0, BODY)));
          bytes.set(mac.subarray(0, MAC), BODY);
          return PREFIX + toBase64Url(bytes);
        }),
      );
    },
    async verify(id) {
      if (typeof id !== "string" || id === "") throw bad("is missing or not a string");
      const bytes = id.startsWith(PREFIX) ? fromBase64Url(id.slice(PREFIX.length)) : null;
      if (bytes === null || bytes.length !== BODY + MAC || bytes[0] !== VERSION)
        throw bad("is not an id this service made (or was made before grading existed)");
      const body = bytes.subarray(0, BODY);
      const mac = bytes.subarray(BODY);
      // Web Crypto has no truncated verify: sign again and compare every byte, whatever differs first.
      let valid = false;
      for (const key of await keys()) {
        const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, body)).subarray(0, MAC);
        let diff = 0;
        for (let i = 0; i < MAC; i++) diff |= (expected[i] as number) ^ (mac[i] as number);
        valid ||= diff === 0;
      }
      if (!valid) throw bad("was altered or made under another QUIZ_SECRET");
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      if (view.getUint16(18) !== tag) throw bad("was made from another data release");
      const age = Math.floor(options.now().getTime() / 1000) - view.getUint32(9);
      if (age > QUIZ_ID_TTL_SECONDS) throw bad(`expired (quizzes can be graded for ${QUIZ_ID_TTL_SECONDS / 3600} hours)`);
      const type = QUIZ_TYPES[bytes[1] as number];
      if (type === undefined) throw bad("names no quiz type");
      return { type, typed: bytes[2] === 1, key: bytes[3] as number, subject: view.getUint32(4), blank: bytes[8] as number };
    },
  };
}
