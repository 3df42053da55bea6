/** The Node server collects its old generation before it grows far past what survives, unless the operator chose a factor (runtime/entry/oldGeneration.ts). */
import { describe, expect, test } from "vitest";
import { inFreshNode } from "../helpers/freshNode.ts";
import { growthChosen } from "../../runtime/entry/oldGeneration.ts";

/**
 * The old generation's largest size in MB, in a fresh Node, while 400,000 objects stay alive and
 * batches of 200,000 live long enough to be promoted, then die (what requests in flight leave).
 */
function oldGenerationPeak(keep: boolean, nodeArgs: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    import { keepOldGenerationNearLive } from "./runtime/entry/oldGeneration.ts";
    const kept = ${keep} ? keepOldGenerationNearLive() : false;
    const old = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_size / 1048576;
    const live = [];
    for (let i = 0; i < 400000; i++) live.push({ i, s: "x" + i });
    let batch = [];
    let peak = 0;
    for (let i = 0; i < 4e6; i++) {
      batch.push({ i, s: "y" + i });
      if (batch.length > 200000) batch = [];
      if (i % 20000 === 0) peak = Math.max(peak, old());
    }
    console.log(JSON.stringify({ kept, live: live.length, mb: peak }));`;
  const result = inFreshNode<{ kept: boolean; mb: number }>(script, nodeArgs);
  expect(result.kept).toBe(keep && !nodeArgs.some((a) => a.startsWith("--heap-growing-percent")));
  return result.mb;
}

describe("the old generation on Node", () => {
  test("kept near what survives: about half the peak V8 lets it reach on its own", () => {
    const alone = oldGenerationPeak(false);
    const kept = oldGenerationPeak(true);
    // Measured: 136–156 MB alone, 65–66 MB kept.
    expect(kept).toBeLessThan(90);
    expect(alone).toBeGreaterThan(110);
  });

  test("an operator's --heap-growing-percent is left alone", () => {
    expect(oldGenerationPeak(true, ["--heap-growing-percent=300"])).toBeGreaterThan(110);
  });

  test("the operator's choice is seen on Node's command line, in either spelling (the rule is nodeStart.ts's optionGiven)", () => {
    expect(
      [["--heap-growing-percent=50"], ["--heap_growing_percent=10"], ["--heap-growing-percents=1"], []].map((execArgv) =>
        growthChosen({ execArgv, nodeOptions: undefined }),
      ),
    ).toEqual([true, true, false, false]);
  });
});
