/**
 * The layering DESIGN.md draws ("Layers"), kept by a test: no import loop anywhere in the code, no
 * arrow from a domain folder of the core (quiz, quota, hanja, idioms) into its HTTP layer, and the
 * pipeline importing nothing of the runtime but the format both share (`runtime/format/`).
 */
import { describe, expect, it } from "vitest";
import { forbiddenArrows, importLoops, readImportGraph } from "../../scripts/import-graph.ts";

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

  it("has no arrow from a domain folder into http/, nor from the pipeline into the runtime outside runtime/format/", () => {
    expect(forbiddenArrows(graph)).toEqual({ domainToHttp: [], pipelineToRuntime: [] });
  });
});
