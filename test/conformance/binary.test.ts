/** The HTTP conformance suite on the `bun build --compile` binary, run from an empty folder. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildBinary } from "../../scripts/build-binary.ts";
import { ROOT } from "../../scripts/ensureDist.ts";
import { compiledBinary, environment, runToExit } from "./servers.ts";
import { send } from "./client.ts";
import { conformanceSuite } from "./suite.ts";
import { CHARACTERS } from "../helpers/pin.ts";

conformanceSuite("compiled binary", compiledBinary);

describe("compiled binary: DIST_DIR", () => {
  const dir = mkdtempSync(join(tmpdir(), "hanja-binary-dist-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is read when set, like on every other runtime: a folder without data stops start-up naming it", { timeout: 120_000 }, async () => {
    const binary = await buildBinary(join(dir, "hanja-api"));
    const result = await runToExit(binary, [], environment({ QUOTA_STORE: "memory", DIST_DIR: join(dir, "no-such-dist") }), dir);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^hanja-api: invalid configuration: DIST_DIR: .*no-such-dist/m);
  });

  it("serves the data of DIST_DIR when it holds some", { timeout: 120_000 }, async () => {
    const server = await compiledBinary({ QUOTA_STORE: "memory", DIST_DIR: join(ROOT, "dist") });
    try {
      const meta = await send(server.url, "/hanja/v1/meta");
      expect(meta.status).toBe(200);
      expect(meta.body.counts.characters).toBe(CHARACTERS);
    } finally {
      await server.stop();
    }
  });
});
