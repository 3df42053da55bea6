/**
 * Every relative link of the README, the guides under docs/, DESIGN.md and the benchmarks' results
 * resolves: the file exists and its `#anchor` is one of that file's headings as GitHub slugs it.
 * A guide moved or a heading renamed without its links fails here, naming the file, line and link;
 * so does a comment or document pointing to a RESULTS.md topic by a name none of its headings has.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/app.ts";
import { type Files, anchors, brokenLinks, links, namesHeading, onDisk, resultsTopics } from "./markdownLinks.ts";

/** The documents a reader follows links through. */
const DOCUMENTS = [
  "README.md",
  "DESIGN.md",
  "test/bench/RESULTS.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** A repository held in memory: these files and nothing else. */
const inMemory = (files: Record<string, string>): Files => ({
  exists: (path) => path in files || Object.keys(files).some((name) => name.startsWith(`${path}/`)),
  read: (path) => files[path] ?? "",
});

describe("the links of the README, the guides and DESIGN.md", () => {
  it("every relative link and anchor resolves", () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(["README.md", "docs/running.md", "docs/contributing.md"]));
    const total = DOCUMENTS.reduce((sum, file) => sum + links(onDisk(ROOT).read(file)).length, 0);
    expect(total).toBeGreaterThan(20);
    expect(brokenLinks(DOCUMENTS, onDisk(ROOT))).toEqual([]);
  });

  it("names a planted link to a missing file, a missing heading, and one leaving the repository", () => {
    const repo = inMemory({
      "README.md":
        "# Hanja API\n\nSee [running](docs/running.md#configuration),\n[gone](docs/gone.md), [top](#hanja-api), [nope](#nowhere)\nand [up](../outside.md).\n",
      "docs/running.md": "# Running\n\n## Config\n",
    });
    expect(brokenLinks(["README.md"], repo)).toEqual([
      'README.md:3 docs/running.md#configuration: no heading "configuration" in docs/running.md',
      "README.md:4 docs/gone.md: no such file",
      'README.md:4 #nowhere: no heading "nowhere" in README.md',
      "README.md:5 ../outside.md: leaves the repository",
    ]);
  });

  it("resolves links relative to the linking file, to folders, and follows reference definitions", () => {
    const repo = inMemory({
      "docs/api.md": "[rules](rules.md#errors) [readme](../README.md#set-up) [tests](../test/) [ref]\n\n[ref]: data.md#licences\n",
      "docs/rules.md": "## Errors\n",
      "docs/data.md": "## Sources\n",
      "README.md": "## Set-up\n",
      "test/docs/links.test.ts": "",
    });
    expect(brokenLinks(["docs/api.md"], repo)).toEqual(['docs/api.md:3 data.md#licences: no heading "licences" in docs/data.md']);
  });

  it("skips external links and links inside code, fenced or inline", () => {
    const markdown = "[site](https://example.com/x.md) [mail](mailto:a@b.c)\n\n```md\n[in a fence](missing.md)\n```\n\n`[inline](missing.md)`\n";
    expect(brokenLinks(["README.md"], inMemory({ "README.md": markdown }))).toEqual([]);
    expect(links(markdown).map((l) => l.target)).toEqual(["https://example.com/x.md", "mailto:a@b.c"]);
  });

  it("slugs headings as GitHub does: code and links to their text, punctuation dropped, repeats numbered", () => {
    const markdown = [
      "# Hanja API",
      "## `GET /hanja/{character}`: one record",
      "## The [page](web/) and its script",
      "## Words as a learner meets them (issue 47, point 4)",
      "## 훈음",
      "## Examples",
      "## Examples",
      "```",
      "## Not a heading",
      "```",
      '<a id="kept"></a>',
    ].join("\n");
    expect([...anchors(markdown)]).toEqual([
      "hanja-api",
      "get-hanjacharacter-one-record",
      "the-page-and-its-script",
      "words-as-a-learner-meets-them-issue-47-point-4",
      "훈음",
      "examples",
      "examples-1",
      "kept",
    ]);
  });
});

/** Every file of `dir` (relative to the root) whose name ends with one of `endings`, recursively. */
const filesUnder = (dir: string, endings: string[]): string[] =>
  (readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }) as string[])
    .filter((name) => endings.some((ending) => name.endsWith(ending)))
    .map((name) => `${dir}/${name}`);

describe("pointers to the benchmarks' topics", () => {
  const results = readFileSync(join(ROOT, "test/bench/RESULTS.md"), "utf8");

  it("every RESULTS.md topic named in the code's comments and the documents is one of its headings", () => {
    const files = [...DOCUMENTS, ...["runtime", "pipeline", "scripts", "web/src"].flatMap((dir) => filesUnder(dir, [".ts", ".mjs"]))];
    const named = files.flatMap((file) => resultsTopics(readFileSync(join(ROOT, file), "utf8")).map((topic) => ({ file, topic })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ topic }) => !namesHeading(results, topic))).toEqual([]);
  });

  it("reads a name wrapped across comment lines, and tells a planted missing topic", () => {
    const comment = ' * costly (see RESULTS.md, "First answers when\n * embedded"); also RESULTS.md "No such topic".';
    expect(resultsTopics(comment)).toEqual(["First answers when embedded", "No such topic"]);
    expect(namesHeading(results, "First answers when embedded")).toBe(true);
    expect(namesHeading(results, "No such topic")).toBe(false);
  });
});

describe("the documents' sizes (issue 48)", () => {
  const text = (path: string) => readFileSync(join(ROOT, path), "utf8");
  const lines = (path: string) => text(path).trimEnd().split("\n").length;
  it("README is a front door of at most 300 lines, RESULTS.md today's figures in at most 500, DESIGN.md at most 15 KB", () => {
    expect(lines("README.md")).toBeLessThanOrEqual(300);
    expect(lines("test/bench/RESULTS.md")).toBeLessThanOrEqual(500);
    expect(Buffer.byteLength(text("DESIGN.md"))).toBeLessThanOrEqual(15_000);
  });
});
