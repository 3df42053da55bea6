/**
 * The layering DESIGN.md draws ("Layers"), kept by a test: no import loop anywhere in the code;
 * every folder of the core placed in a layer; no arrow from a domain folder of the core (or the
 * data and helpers below it) up into HTTP, the reference, the routes or the operations; the shared
 * format (`runtime/format/`) importing nothing outside itself, and the pipeline nothing of the
 * runtime but that format; the core importing nothing of what is built around it (the stores, the
 * server programs, the CLI, the page). Each rule is shown failing on a planted import.
 */
import { describe, expect, it } from "vitest";
import { type ImportGraph, forbiddenArrows, importLoops, readImportGraph, unplacedCoreFolders } from "../../scripts/import-graph.ts";

const graph = readImportGraph();

describe("the import graph", () => {
  it("reads the code: the core's files and the arrows between them are there", () => {
    expect(graph.lines.size).toBeGreaterThan(100);
    expect(graph.edges.get("runtime/core/app.ts")).toContain("runtime/core/handler.ts");
    expect(graph.edges.get("pipeline/buildDist.ts")).toContain("runtime/format/records.ts");
  });

  it("has no import loop", () => {
    expect(importLoops(graph)).toEqual([]);
  });

  it("finds a loop when there is one", () => {
    const looped = { lines: graph.lines, edges: new Map([...graph.edges, ["runtime/core/http/reply.ts", new Set(["runtime/core/app.ts"])]]) };
    expect(importLoops(looped).flat()).toEqual(expect.arrayContaining(["runtime/core/app.ts", "runtime/core/http/reply.ts"]));
  });

  it("has no arrow from the domain up, nor out of runtime/format/, nor from the pipeline into the runtime outside it, nor from the core outwards", () => {
    expect(forbiddenArrows(graph)).toEqual({ domainUpward: [], formatOutward: [], pipelineToRuntime: [], coreToOuter: [] });
  });

  it("places every folder of the core in a layer, and names one that is in none", () => {
    expect(unplacedCoreFolders(graph)).toEqual([]);
    const lines = new Map([...graph.lines, ["runtime/core/lexicon/entries.ts", 1]]);
    expect(unplacedCoreFolders({ lines, edges: graph.edges })).toEqual(["runtime/core/lexicon"]);
  });

  // The arrows the layering once had without the test seeing them, each planted back.
  it.each([
    ["a domain folder into HTTP", "runtime/core/words/wordQuery.ts", "runtime/core/http/errors.ts", "domainUpward"],
    ["a domain folder into the reference", "runtime/core/read/formatReading.ts", "runtime/core/docs/markdown.ts", "domainUpward"],
    ["a domain folder into the routes", "runtime/core/quiz/makeQuiz.ts", "runtime/core/routes/quizParams.ts", "domainUpward"],
    ["the data into the operations", "runtime/core/data/load.ts", "runtime/core/operations/operation.ts", "domainUpward"],
    ["the shared format into the routes", "runtime/format/recordSchemas.ts", "runtime/core/routes/hanjaParams.ts", "formatOutward"],
    ["interface B's schemas into the routes", "runtime/format/quizSchemas.ts", "runtime/core/routes/quizParams.ts", "formatOutward"],
    ["interface B's schemas into the quiz types", "runtime/format/quizSchemas.ts", "runtime/core/quiz/types/index.ts", "formatOutward"],
    ["the core into the page's assets", "runtime/core/operations/interfaces.ts", "web/assets.generated.ts", "coreToOuter"],
    ["the core into the page's module", "runtime/core/app.ts", "runtime/page/page.ts", "coreToOuter"],
  ] as const)("finds an arrow from %s when there is one (%s → %s)", (_, from, to, rule) => {
    const planted = plant(graph, from, to);
    expect(forbiddenArrows(planted)[rule]).toEqual([`${from} → ${to}`]);
  });

  it("finds an arrow from the core into the stores, the server programs or the CLI when there is one", () => {
    const outward = ["runtime/stores/registry.ts", "runtime/entry/settings.ts", "runtime/cli/keys.ts"];
    const edges = new Map([...graph.edges, ["runtime/core/appOptions.ts", new Set([...(graph.edges.get("runtime/core/appOptions.ts") ?? []), ...outward])]]);
    expect(forbiddenArrows({ lines: graph.lines, edges }).coreToOuter.sort()).toEqual(outward.map((to) => `runtime/core/appOptions.ts → ${to}`).sort());
  });
});

/** `graph` with one more import, of `to` by `from`. */
function plant(graph: ImportGraph, from: string, to: string): ImportGraph {
  return { lines: graph.lines, edges: new Map([...graph.edges, [from, new Set([...(graph.edges.get(from) ?? []), to])]]) };
}
