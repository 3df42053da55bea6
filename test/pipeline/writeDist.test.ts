/** Writing dist/: an output folder that cannot be made is reported as such, naming the folder. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { type DistContent, writeDist } from "../../pipeline/write/writeDist.ts";
import { errorOf, tempDir } from "./helpers.ts";

describe("writeDist", () => {
  it("an output folder that cannot be made fails naming it, while index texts still pending fail later unnoticed", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "a-file"), "not a folder\n");
    const outDir = join(dir, "a-file", "dist");
    // What the build hands over while the index worker is still busy; closing the worker rejects it.
    const pending = () => new Promise<string>((_, reject) => setTimeout(() => reject(new Error("search index worker: closed")), 20));
    const content: DistContent = {
      characters: "",
      details: "",
      tables: "{}",
      idioms: "[]",
      quiz: "{}",
      searchCharacters: pending(),
      searchIdioms: pending(),
      meta: "{}",
      terms: "",
      words: "",
      wordsEn: "",
      strokes: "",
      strokesJa: "",
      strokeForms: "",
    };
    const error = await errorOf(() => writeDist(outDir, content, {} as Parameters<typeof writeDist>[2]));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^cannot write the output folder .*a-file\/dist \(--out\): ENOTDIR/);
    // The pending texts reject after this; vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
