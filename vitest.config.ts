import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The tests that start other processes: servers on each runtime, bundles, the compiled binary,
 * several processes sharing a store, the CLIs, the browser the page is tested in. `npm run test:fast`
 * runs everything else (the in-process tests, for the edit-and-test loop); `npm test` runs both.
 */
const SPAWNING = [
  "test/conformance/**",
  "test/embedding/**",
  "test/package/**",
  "test/http/quiz-multiprocess.test.ts",
  "test/store/multiprocess.test.ts",
  "test/store/runtimes.test.ts",
  "test/store/cli.test.ts",
  "test/store/depositsCli.test.ts",
  "test/store/usageCli.test.ts",
  "test/store/redis*.test.ts",
  "test/runtime/startDeno.test.ts",
  "test/runtime/npmStart.test.ts",
  "test/deploy/compose.test.ts",
  "test/runtime/metricsPromtool.test.ts",
  "test/runtime/youngGeneration.test.ts",
  "test/runtime/oldGeneration.test.ts",
  "test/pipeline/buildInputs.test.ts",
  "test/pipeline/fixtures.test.ts",
  "test/release/version-flow.test.ts",
  "test/page/**",
];

/**
 * The package's own name resolves to its sources here (tsconfig.json maps it the same way for tsc
 * and tsx); the installed package resolves it to the compiled lib/ through package.json `exports`.
 */
const SOURCES = {
  "hanja-api/node": fileURLToPath(new URL("./runtime/entry/nodeApi.ts", import.meta.url)),
  "hanja-api/stores": fileURLToPath(new URL("./runtime/stores/index.ts", import.meta.url)),
  "hanja-api/page": fileURLToPath(new URL("./runtime/page/index.ts", import.meta.url)),
  "hanja-api": fileURLToPath(new URL("./runtime/core/index.ts", import.meta.url)),
};

export default defineConfig({
  resolve: { alias: Object.entries(SOURCES).map(([find, replacement]) => ({ find: new RegExp(`^${find}$`), replacement })) },
  test: {
    globalSetup: ["test/globalSetup.ts"],
    reporters: ["default", "./test/reporters/summaryLine.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: SPAWNING } },
      { extends: true, test: { name: "processes", include: SPAWNING.map((p) => (p.endsWith("**") ? `${p}/*.test.ts` : p)) } },
    ],
  },
});
