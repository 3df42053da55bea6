/**
 * A quiz id of the first format (version 1), made as the service made them before its ids were
 * encrypted: the claims in the clear (the right key is byte 3), then 16 bytes of HMAC-SHA-256 under
 * the secret itself. Genuine under `secret`, so a refusal is for its format and nothing else.
 */
import type { QuizClaims } from "../../runtime/core/quiz/quizId.ts";
import { QUIZ_TYPES } from "../../runtime/core/quiz/types/index.ts";

export async function firstFormatQuizId(claims: QuizClaims, secret: string, dataHash: string, at: Date): Promise<string> {
  const body = new Uint8Array(20);
  const view = new DataView(body.buffer);
  body.set([1, QUIZ_TYPES.indexOf(claims.type), claims.typed ? 1 : 0, claims.key]);
  view.setUint32(4, claims.subject);
  body[8] = claims.blank;
  view.setUint32(9, Math.floor(at.getTime() / 1000));
  body.set(crypto.getRandomValues(new Uint8Array(5)), 13);
  view.setUint16(18, Number.parseInt(dataHash.slice(0, 4), 16) || 0);
  const hmac = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, body)).subarray(0, 16);
  return `qz_${Buffer.from([...body, ...mac]).toString("base64url")}`;
}
