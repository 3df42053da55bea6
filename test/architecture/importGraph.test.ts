/**
 * The layering DESIGN.md draws ("Layers"), kept by a test: no import loop anywhere in the code, no
 * arrow from a domain folder of the core (quiz, quota, hanja, idioms) into its HTTP layer, and the
 * pipeline importing nothing of the runtime but the format both share (`runtime/format/`), and the
 * core importing nothing of what is built around it (the stores, the server programs, the CLI).
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

  it("has no arrow from a domain folder into http/, nor from the pipeline into the runtime outside runtime/format/, nor from the core outwards", () => {
    expect(forbiddenArrows(graph)).toEqual({ domainToHttp: [], pipelineToRuntime: [], coreToOuter: [] });
  });

  it("finds an arrow from the core into the stores, the server programs or the CLI when there is one", () => {
    const outward = ["runtime/stores/registry.ts", "runtime/entry/settings.ts", "runtime/cli/keys.ts"];
    const edges = new Map([...graph.edges, ["runtime/core/appOptions.ts", new Set([...(graph.edges.get("runtime/core/appOptions.ts") ?? []), ...outward])]]);
    expect(forbiddenArrows({ lines: graph.lines, edges }).coreToOuter.sort()).toEqual(outward.map((to) => `runtime/core/appOptions.ts → ${to}`).sort());
  });
});
