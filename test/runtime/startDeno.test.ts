/**
 * `npm run start:deno` (scripts/start-deno.ts): Deno's permissions follow the configuration, so a
 * `DIST_DIR` or `QUOTA_DB` outside the project works, nothing else is readable or writable, and the
 * server may listen on `HOST` alone; SIGTERM to the script stops the server gracefully.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CONFIG_VARIABLES } from "../../runtime/entry/config.ts";
import { RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { DENO_V8_OPTIONS, denoPermissions } from "../../scripts/start-deno.ts";
import { environment } from "../conformance/servers.ts";
import { ROOT } from "../helpers/app.ts";
import { spawnServer } from "../helpers/server.ts";
import { CHARACTERS } from "../helpers/pin.ts";

const ENV = `--allow-env=${CONFIG_VARIABLES.join(",")}`;

describe("Deno's V8 options", () => {
  test("are the Node server's old generation factor and a held young generation, and docs/running.md's Deno command gives them", () => {
    expect(DENO_V8_OPTIONS).toEqual(["--v8-flags=--heap-growing-percent=20,--max-semi-space-size=4"]);
    const readme = readFileSync(join(ROOT, "docs/running.md"), "utf8");
    expect(readme).toContain(`npx deno run ${DENO_V8_OPTIONS.join(" ")} --allow-read=`);
  });
});

describe("denoPermissions", () => {
  test("by default: read the project and .data, write .data, listen on 127.0.0.1", () => {
    expect(denoPermissions({})).toEqual(["--no-prompt", "--allow-read=.,.data", "--allow-write=.data", ENV, "--allow-net=127.0.0.1"]);
  });

  test("DIST_DIR and QUOTA_DB add their folders; the database's folder is the only one writable", () => {
    expect(denoPermissions({ DIST_DIR: "/srv/hanja/dist-17", QUOTA_DB: "/var/lib/hanja/quota.sqlite", HOST: "0.0.0.0" })).toEqual([
      "--no-prompt",
      "--allow-read=.,/srv/hanja/dist-17,/var/lib/hanja",
      "--allow-write=/var/lib/hanja",
      ENV,
      "--allow-net=0.0.0.0",
    ]);
  });

  test("QUOTA_STORE=memory writes nothing; the code folders given are read", () => {
    expect(denoPermissions({ QUOTA_STORE: "memory", QUOTA_DB: "/var/lib/hanja/quota.sqlite" }, ["/opt/hanja"])).toEqual([
      "--no-prompt",
      "--allow-read=/opt/hanja",
      ENV,
      "--allow-net=127.0.0.1",
    ]);
  });

  test("an IPv6 HOST is bracketed; empty variables count as unset", () => {
    expect(denoPermissions({ HOST: "::1", DIST_DIR: "", QUOTA_DB: "" }).slice(1)).toEqual([
      "--allow-read=.,.data",
      "--allow-write=.data",
      ENV,
      "--allow-net=[::1]",
    ]);
  });

  test("an invalid configuration leaves the network open, so the server itself names the bad variable", () => {
    expect(denoPermissions({ PORT: "abc" }).at(-1)).toBe("--allow-net");
    expect(denoPermissions({ HOST: "a b" }).at(-1)).toBe("--allow-net");
  });
});

describe("npm run start:deno", () => {
  const work = mkdtempSync(join(tmpdir(), "hanja-start-deno-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test("serves a DIST_DIR and keeps its quota in a QUOTA_DB outside the project; SIGTERM stops it gracefully", { timeout: 60_000 }, async () => {
    const dist = join(work, "dist-elsewhere");
    mkdirSync(dist);
    for (const name of RUNTIME_FILES) copyFileSync(join(ROOT, "dist", name), join(dist, name));
    const db = join(work, "db", "quota.sqlite");
    const server = await spawnServer({
      command: process.execPath,
      args: ["--import", "tsx", "scripts/start-deno.ts"],
      env: environment({ DIST_DIR: dist, QUOTA_DB: db }),
      timeoutMs: 45_000,
    });
    const meta = await fetch(`${server.url}/hanja/v1/meta`);
    expect(meta.status).toBe(200);
    expect(((await meta.json()) as { counts?: { characters?: number } }).counts?.characters).toBe(CHARACTERS);
    const idiom = await fetch(`${server.url}/quiz/v1/idiom/1`);
    expect(idiom.status, server.stderr()).toBe(200);
    expect(idiom.headers.get("x-ratelimit-remaining")).toBe("29");
    expect(existsSync(db)).toBe(true);
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain("SIGTERM: finishing in-flight requests");
  });
});
