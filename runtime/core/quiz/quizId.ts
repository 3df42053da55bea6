/**
 * Gradeable quiz ids: a `quiz_id` carries what grading needs (the type, what was asked, the key of
 * the right option) and when it was made, encrypted and authenticated with AES-256-GCM (Web
 * Crypto, so every runtime makes them alike) under a key derived from the server's `QUIZ_SECRET`
 * with HKDF-SHA-256. A client holding the id learns nothing of the answer; any instance with the
 * secret grades a quiz another made; nothing is stored. An id that was altered, made under another
 * secret or another data release, in an older format, older than `QUIZ_ID_TTL_SECONDS` or stamped
 * more than `QUIZ_ID_SKEW_SECONDS` ahead of this server's clock is refused (`QuizIdError`; the
 * route answers `400` naming `quiz_id`).
 */
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

/**
 * The id's bytes (42, so 56 base64url characters with no padding and no spare bits: each id has
 * one spelling). Byte 0 is the format's version, in the clear and authenticated (the AEAD's
 * associated data); then the nonce; then the claims, encrypted; then the AEAD's tag.
 */
const VERSION = 2;
const NONCE = 12;
/** The claims: type index (bit 7: typed), key, blank, subject (u32), seconds (u32), data tag (u16). */
const CLAIMS = 13;
const TAG = 16;
const LENGTH = 1 + NONCE + CLAIMS + TAG;
/** The first format (version 1): the claims in the clear, signed with HMAC-SHA-256; refused since. */
const SIGNED_V1 = { version: 1, length: 36 };
/** Names the key's purpose and the format it serves: a key derived for anything else differs. */
const KEY_INFO = "hanja-api quiz_id v2 AES-256-GCM";
/** How far ahead of this server's clock an id may be stamped: the clock skew between instances. */
export const QUIZ_ID_SKEW_SECONDS = 60;
const PREFIX = "qz_";

/** Why a quiz id cannot be graded, said to the client. */
export class QuizIdError extends Error {
  constructor(why: string) {
    super(`quiz_id ${why}; draw a new quiz with GET /quiz`);
    this.name = "QuizIdError";
  }
}

/** Makes and checks quiz ids. */
export interface QuizIds {
  /** An id for each quiz, in order. */
  sign(claims: readonly QuizClaims[]): Promise<string[]>;
  /**
   * The seed a `reveal=0` draw of `seed` uses: HMAC-SHA-256 of it under a key derived from the
   * first secret, so the same seed gives a class the same hidden quizzes on every instance with the
   * secret, while the seed alone (in the class's link) draws other quizzes revealed.
   */
  drawSeed(seed: number): Promise<number>;
  /** The claims of an id; a `QuizIdError` saying why it cannot be graded. */
  verify(id: unknown): Promise<QuizClaims>;
}

export interface QuizIdOptions {
  /**
   * The secrets: the first encrypts, every one decrypts (a rotation keeps the old one here for a
   * day). Undefined: a random one of these ids, drawn on first use (a worker may draw random
   * numbers only while it handles a request).
   */
  secrets: readonly string[] | undefined;
  now: () => Date;
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

/** What the HMAC key of `drawSeed` is derived for. */
const SEED_INFO = "hanja-api quiz draw seed v1 HMAC-SHA-256";

/** A key for `algorithm` derived from `secret` with HKDF-SHA-256 (no salt: `info` names its use). */
async function derivedKey(
  secret: Uint8Array<ArrayBuffer>,
  info: string,
  algorithm: AesKeyGenParams | HmacKeyGenParams,
  usages: KeyUsage[],
): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  const hkdf = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(info) };
  return crypto.subtle.deriveKey(hkdf, base, algorithm, false, usages);
}

/** The AES-256-GCM key of the ids. */
const idKey = (secret: Uint8Array<ArrayBuffer>) => derivedKey(secret, KEY_INFO, { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]);

/** The HMAC key of `drawSeed`. */
const seedKey = (secret: Uint8Array<ArrayBuffer>) => derivedKey(secret, SEED_INFO, { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]);

/**
 * Quiz ids made and checked with `options.secrets`. Each id's nonce is 96 bits from the platform
 * CSPRNG, drawn here and never from an injected generator: GCM under one key must never see a
 * nonce twice, and a seeded generator (`/quiz?seed=`, the tests) repeats its draws.
 */
export function createQuizIds(options: QuizIdOptions): QuizIds {
  const encoder = new TextEncoder();
  let secrets: Uint8Array<ArrayBuffer>[] | undefined;
  // Without a secret, one drawn on first use serves both keys.
  const secretBytes = () =>
    (secrets ??= options.secrets === undefined ? [crypto.getRandomValues(new Uint8Array(32))] : options.secrets.map((secret) => encoder.encode(secret)));
  let derived: Promise<CryptoKey[]> | undefined;
  let seeding: Promise<CryptoKey> | undefined;
  // Derived on the first quiz drawn with reveal=0 or the first grade, not when the app is made.
  const keys = () => (derived ??= Promise.all(secretBytes().map(idKey)));
  const tag = Number.parseInt(options.dataHash.slice(0, 4), 16) || 0;
  const bad = (why: string) => new QuizIdError(why);
  const header = Uint8Array.of(VERSION);
  const seconds = () => Math.floor(options.now().getTime() / 1000);

  return {
    async sign(claims) {
      const [key] = await keys();
      if (key === undefined) throw new Error("quiz ids: no secret");
      const stamped = seconds();
      const nonces = crypto.getRandomValues(new Uint8Array(NONCE * claims.length));
      return Promise.all(
        claims.map(async (claim, n) => {
          const type = QUIZ_TYPES.indexOf(claim.type);
          if (type < 0 || type > 0x7f) throw new Error(`quiz ids: no type ${claim.type}`);
          const plain = new Uint8Array(CLAIMS);
          const view = new DataView(plain.buffer);
          plain[0] = type | (claim.typed ? 0x80 : 0);
          plain[1] = claim.key;
          plain[2] = claim.blank;
          view.setUint32(3, claim.subject);
          view.setUint32(7, stamped);
          view.setUint16(11, tag);
          const iv = nonces.subarray(NONCE * n, NONCE * (n + 1));
          const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: header, tagLength: TAG * 8 }, key, plain));
          const bytes = new Uint8Array(LENGTH);
          bytes[0] = VERSION;
          bytes.set(iv, 1);
          bytes.set(sealed, 1 + NONCE);
          return PREFIX + toBase64Url(bytes);
        }),
      );
    },
    async drawSeed(seed) {
      const key = await (seeding ??= seedKey(secretBytes()[0] as Uint8Array<ArrayBuffer>));
      const message = new Uint8Array(4);
      new DataView(message.buffer).setUint32(0, seed >>> 0);
      return new DataView(await crypto.subtle.sign("HMAC", key, message)).getUint32(0);
    },
    async verify(id) {
      if (typeof id !== "string" || id === "") throw bad("is missing or not a string");
      const bytes = id.startsWith(PREFIX) ? fromBase64Url(id.slice(PREFIX.length)) : null;
      if (bytes !== null && bytes.length === SIGNED_V1.length && bytes[0] === SIGNED_V1.version) throw bad("is of an older format, no longer graded");
      if (bytes === null || bytes.length !== LENGTH || bytes[0] !== VERSION) throw bad("is not an id this service made (or was made before grading existed)");
      const iv = bytes.subarray(1, 1 + NONCE);
      const sealed = bytes.subarray(1 + NONCE);
      let plain: Uint8Array | undefined;
      for (const key of await keys()) {
        try {
          plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: header, tagLength: TAG * 8 }, key, sealed));
          break;
        } catch {
          // Not this key's (or altered): the next one may open it.
        }
      }
      if (plain?.length !== CLAIMS) throw bad("was altered or made under another QUIZ_SECRET");
      const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
      if (view.getUint16(11) !== tag) throw bad("was made from another data release");
      const age = seconds() - view.getUint32(7);
      if (age < -QUIZ_ID_SKEW_SECONDS)
        throw bad(`is dated ${-age} s ahead of this server's clock (at most ${QUIZ_ID_SKEW_SECONDS} s of clock difference is allowed)`);
      if (age > QUIZ_ID_TTL_SECONDS) throw bad(`expired (quizzes can be graded for ${QUIZ_ID_TTL_SECONDS / 3600} hours)`);
      const type = QUIZ_TYPES[(plain[0] as number) & 0x7f];
      if (type === undefined) throw bad("names no quiz type");
      return { type, typed: ((plain[0] as number) & 0x80) !== 0, key: plain[1] as number, subject: view.getUint32(3), blank: plain[2] as number };
    },
  };
}
