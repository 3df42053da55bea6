/** The Node server holds V8's young generation at its start-up size unless the operator chose one (runtime/entry/youngGeneration.ts). */
import { describe, expect, test } from "vitest";
import { inFreshNode } from "../helpers/freshNode.ts";
import { sizeChosen } from "../../runtime/entry/youngGeneration.ts";

/** The young generation's size in MB after a burst of short-lived allocations, in a fresh Node. */
function youngGenerationAfterBurst(hold: boolean, nodeArgs: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    import { holdYoungGeneration } from "./runtime/entry/youngGeneration.ts";
    const held = ${hold} ? holdYoungGeneration() : false;
    let kept = [];
    for (let i = 0; i < 2e6; i++) { kept.push({ i, s: "x" + i }); if (kept.length > 2000) kept = []; }
    const space = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    console.log(JSON.stringify({ held, mb: space.space_size / 1048576 }));`;
  const result = inFreshNode<{ held: boolean; mb: number }>(script, nodeArgs);
  expect(result.held).toBe(hold && !nodeArgs.some((a) => a.startsWith("--max-semi-space-size")));
  return result.mb;
}

describe("the young generation on Node", () => {
  test("grows to V8's 32 MB under allocation when left alone, and stays at its size when held", () => {
    expect(youngGenerationAfterBurst(false)).toBe(32);
    expect(youngGenerationAfterBurst(true)).toBeLessThanOrEqual(8);
  });

  test("an operator's --max-semi-space-size is left alone", () => {
    expect(youngGenerationAfterBurst(true, ["--max-semi-space-size=16"])).toBe(32);
  });

  test("the operator's choice is seen on Node's command line and in NODE_OPTIONS, in either spelling", () => {
    expect(sizeChosen({ execArgv: ["--max-semi-space-size=8"], nodeOptions: undefined })).toBe(true);
    expect(sizeChosen({ execArgv: [], nodeOptions: "--enable-source-maps --max_semi_space_size=4" })).toBe(true);
    expect(sizeChosen({ execArgv: ["--max-old-space-size=512"], nodeOptions: "--max-semi-space-sizes=1" })).toBe(false);
    expect(sizeChosen({ execArgv: [], nodeOptions: undefined })).toBe(false);
  });
});
