/**
 * GET /quiz answers at once when nothing has to wait: on the memory store a revealed quiz (the
 * published interface's) comes back as a reply, not a promise, so a server writes it in the turn
 * it was asked in; only `reveal=0`, whose ids are signed with Web Crypto, waits.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Reply } from "../../runtime/core/http/reply.ts";
import { testApp } from "../helpers/app.ts";

const app = testApp();
afterAll(() => app.close());
const get = (path: string) => app.handle({ method: "GET", url: `http://localhost${path}`, headers: new Headers() });
const bodyOf = (reply: Reply) =>
  JSON.parse(typeof reply.body === "string" ? reply.body : new TextDecoder().decode(reply.body as Uint8Array)) as {
    quiz?: { quiz_id: string; answer?: string };
  };

describe("GET /quiz/v1/quiz on the memory store", () => {
  it("answers a revealed quiz at once, with its answer", () => {
    const reply = get("/quiz/v1/quiz");
    expect(reply).not.toBeInstanceOf(Promise);
    expect((reply as Reply).status).toBe(200);
    expect(bodyOf(reply as Reply).quiz?.answer).toMatch(/^[1-9]$/);
  });

  it("answers a character quiz at once too", () => {
    const reply = get("/quiz/v1/quiz?type=hanja_to_hunum&seed=3");
    expect(reply).not.toBeInstanceOf(Promise);
    expect((reply as Reply).status).toBe(200);
  });

  it("waits only to sign the ids of reveal=0", async () => {
    const pending = get("/quiz/v1/quiz?reveal=0");
    expect(pending).toBeInstanceOf(Promise);
    const quiz = bodyOf(await pending).quiz;
    expect(quiz?.quiz_id).toMatch(/^qz_/);
    expect(quiz?.answer).toBeUndefined();
  });
});
