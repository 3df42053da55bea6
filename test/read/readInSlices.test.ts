/**
 * The reader as the server runs it: prepared in slices (`prepareReader`) and read in slices
 * (`readAnswerInSlices`), it answers exactly what the synchronous reader answers on first use,
 * while other work runs between its slices; a long reading's slices take their turn with another's.
 */
import { describe, expect, test } from "vitest";
import { prepareReader, readAnswerInSlices, readHanja } from "../../runtime/core/read/readHanja.ts";
import { readResultJson } from "../../runtime/core/read/readResultJson.ts";
import { runInSlices } from "../../runtime/core/read/slices.ts";
import { readerPhrases } from "../bench/readerTexts.ts";
import { datasetCharacters, randomText } from "../conformance/heavyReadLoad.ts";
import { testApp } from "../helpers/app.ts";

/** The reader on first use (nothing worked out ahead), and the reader prepared in slices: two apps, two sources. */
const lazy = testApp().data;
const prepared = testApp().data;
const decoder = new TextDecoder();
const sliced = async (text: string, format: "hangul" | "paren" | "ruby") => decoder.decode(await readAnswerInSlices(text, prepared, { format }));

describe("the reader in slices", () => {
  test("prepared, it reads every character, the phrase set and 20,000 random characters as the reader on first use does, in every format", async () => {
    await prepareReader(prepared);
    const characters = datasetCharacters();
    const texts = [
      characters.join(""),
      characters.join(" "),
      readerPhrases()
        .map(({ phrase }) => phrase)
        .join("\n"),
      randomText(characters, 20_000),
    ];
    for (const text of texts) {
      for (const format of text.length > 10_000 ? (["hangul", "paren", "ruby"] as const) : (["ruby"] as const)) {
        expect(await sliced(text, format), `${format} of ${text.slice(0, 20)}…`).toBe(readResultJson(readHanja(text, lazy, { format })));
      }
    }
  }, 60_000);

  test("a timer set during a reading of 20,000 characters fires before the reading ends", async () => {
    await prepareReader(prepared);
    const events: string[] = [];
    setTimeout(() => events.push("timer"), 0);
    await sliced(randomText(datasetCharacters(), 20_000), "ruby").then(() => events.push("read"));
    expect(events).toEqual(["timer", "read"]);
  }, 30_000);

  test("work under way takes turns, a slice each", async () => {
    const log: string[] = [];
    const steps = (name: string) =>
      (function* () {
        for (let i = 0; i < 3; i++) {
          log.push(name);
          yield;
        }
        return name;
      })();
    expect(await Promise.all([runInSlices(steps("a"), 0), runInSlices(steps("b"), 0)])).toEqual(["a", "b"]);
    expect(log.join("")).toBe("ababab");
  });

  test("steps of a few milliseconds at most: no slice runs past its time by more than a step", async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const steps = (function* () {
      for (let i = 0; i < 200; i++) {
        const until = performance.now() + 0.1;
        while (performance.now() < until) {}
        yield;
      }
      return "done";
    })();
    const interval = setInterval(() => {
      gaps.push(performance.now() - last);
      last = performance.now();
    }, 0);
    expect(await runInSlices(steps, 2)).toBe("done");
    clearInterval(interval);
    // 20 ms of work in 0.1 ms steps: the interval ran between the slices (about ten of them).
    expect(gaps.length).toBeGreaterThanOrEqual(5);
  });

  test("an error in a step rejects the reading, and the slices of the others go on", async () => {
    const failing = (function* (): Generator<void, string, void> {
      yield;
      throw new Error("broken step");
    })();
    const other = runInSlices(
      (function* () {
        for (let i = 0; i < 3; i++) yield;
        return "other";
      })(),
      0,
    );
    await expect(runInSlices(failing, 0)).rejects.toThrow("broken step");
    expect(await other).toBe("other");
  });
});
