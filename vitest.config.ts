import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/globalSetup.ts"],
    reporters: ["default", "./test/reporters/summaryLine.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
