/**
 * Proof as a user would: the packed tarball installed into a fresh project (no tsx, no native
 * build: the memory store), served by small hosts on plain `node`, Bun, Deno and Hono, each
 * answering a character detail, an English search and a seeded quiz exactly like the standalone
 * app; a TypeScript consumer type-checks against the shipped types, and a strict one of the
 * portable entry in a project without `@types/node`; the SQLite store, whose Node
 * driver is an optional peer, says what to install when it is missing.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { BUN, DENO } from "../conformance/servers.ts";
import { ROOT } from "../helpers/app.ts";
import { RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { type RunningServer, spawnServer } from "../helpers/server.ts";
import { BUN_HOST, DENO_HOST, HONO_HOST, NODE_HOST, PORTABLE_CONSUMER, STORE_WITHOUT_DRIVER, TS_CONFIG, TS_CONSUMER, portableConfig } from "./hosts.ts";
import { type Packed, freshProject, pack, pinned } from "./packed.ts";

const run = promisify(execFile);

/** Detail, English search, a seeded quiz (its id aside, drawn from the CSPRNG). */
const PATHS = ["/hanja/v1/hanja/%E6%B0%B4", "/hanja/v1/hanja?q=water", "/quiz/v1/quiz?seed=7"];

let packed: Packed;
let project: string;

beforeAll(async () => {
  packed = await pack();
  project = await freshProject(packed.tarball, await Promise.all(["hono", "@hono/node-server", "typescript", "@types/node"].map(pinned)));
  const files = {
    "host-node.mjs": NODE_HOST,
    "host-bun.mjs": BUN_HOST,
    "host-deno.mjs": DENO_HOST,
    "host-hono.mjs": HONO_HOST,
    "store.mjs": STORE_WITHOUT_DRIVER,
    "consumer.ts": TS_CONSUMER,
    "tsconfig.json": TS_CONFIG,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
}, 420_000);

afterAll(async () => {
  packed?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** The parts of an answer that must be equal: status, the headers that describe the body, and the body (a quiz's id aside). */
async function answer(response: Response): Promise<{ status: number; type: string | null; etag: string | null; body: unknown }> {
  const text = await response.text();
  const body = JSON.parse(text) as { quiz?: { quiz_id?: string } };
  if (body.quiz?.quiz_id) body.quiz.quiz_id = "qz_";
  return { status: response.status, type: response.headers.get("content-type"), etag: response.headers.get("etag"), body };
}

const hosts = [
  { name: "plain node", command: () => process.execPath, args: ["host-node.mjs"], mountPath: "" },
  { name: "Bun", command: () => BUN, args: ["host-bun.mjs"], mountPath: "" },
  {
    name: "Deno (the project's node_modules)",
    command: () => DENO,
    args: ["run", "--allow-read", "--allow-net=127.0.0.1", "--allow-env", "host-deno.mjs"],
    mountPath: "",
  },
  { name: "Hono on node", command: () => process.execPath, args: ["host-hono.mjs"], mountPath: "/lexicon" },
];

describe.each(hosts)("the installed package served by $name", ({ command, args, mountPath }) => {
  let server: RunningServer;
  // A standalone app per host, each with its own demo quota like the host's.
  let standalone: App;
  beforeAll(async () => {
    // Over the files the package ships (RUNTIME_FILES): without the stroke data or the words' English, as the package is.
    const all = loadDistFiles(join(ROOT, "dist"));
    standalone = createApp({ dist: Object.fromEntries(RUNTIME_FILES.flatMap((name) => (all[name] === undefined ? [] : [[name, all[name]]]))), mountPath });
    server = await spawnServer({
      command: command(),
      args,
      cwd: project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
      timeoutMs: 60_000,
    });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await standalone?.close();
  });

  it.each(PATHS)("answers %s exactly like the standalone app", async (path) => {
    const embedded = await answer(await fetch(`${server.url}${path}`, { headers: { "Accept-Encoding": "identity" } }));
    const direct = await answer(await standalone.fetch(new Request(`http://localhost${path}`), { clientAddress: "127.0.0.1" }));
    expect(embedded.status).toBe(200);
    expect(embedded).toEqual(direct);
  });
});

describe("the fresh project", () => {
  it("installs the package alone: no dependency, no tsx or build tool, no SQLite addon or Redis client", () => {
    const modules = join(project, "node_modules");
    expect(existsSync(join(modules, "hanja-api/lib/runtime/core/index.js"))).toBe(true);
    for (const absent of ["tsx", "better-sqlite3", "@redis/client", "esbuild", "unzipper", "csv-parse", "minisearch", "itty-router"])
      expect(existsSync(join(modules, absent)), absent).toBe(false);
  });

  it("type-checks a TypeScript consumer against the shipped types (tsc --noEmit, NodeNext, no skipLibCheck)", async () => {
    const result = await run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", project], { cwd: project }).catch(
      (error: { stdout: string }) => error,
    );
    expect("stdout" in result ? result.stdout : "").toBe("");
  });

  it("refuses a type error in the consumer", async () => {
    const broken = join(project, "broken.ts");
    writeFileSync(broken, `import { createBundledApp } from "hanja-api/node";\nconst app: string = createBundledApp();\n`);
    const config = join(project, "tsconfig.broken.json");
    writeFileSync(config, TS_CONFIG.replace('"consumer.ts"', '"broken.ts"'));
    const failed = await run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", config], { cwd: project }).then(
      () => null,
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toMatch(/broken\.ts\(2,7\): error TS2322: Type 'App' is not assignable to type 'string'/);
  });

  it("opens the SQLite store on Node without its optional driver with a message saying what to install", async (ctx) => {
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    if (major > 22 || (major === 22 && minor >= 13)) ctx.skip("this Node has node:sqlite and needs no driver package");
    const { stdout } = await run(process.execPath, ["store.mjs", "sqlite"], { cwd: project });
    expect(stdout).toMatch(/needs the better-sqlite3 package where the server runs: npm install better-sqlite3@12, or set QUOTA_STORE=memory/);
  });

  it("opens the Redis store without its optional client with a message saying what to install", async () => {
    const { stdout } = await run(process.execPath, ["store.mjs", "redis"], { cwd: project });
    expect(stdout).toMatch(
      /^the Redis store needs the @redis\/client package where the server runs: npm install @redis\/client@6, or choose another store \(.*@redis\/client/,
    );
  });

  it("ships the data it serves: the installed manifest is the project's", () => {
    const shipped = readFileSync(join(project, "node_modules/hanja-api/lib/dist/manifest.json"), "utf8");
    expect(shipped).toBe(readFileSync(join(ROOT, "dist/manifest.json"), "utf8"));
  });
});

describe("a strict consumer of the portable entry, in a project without @types/node", () => {
  let portable: string;
  beforeAll(async () => {
    portable = await freshProject(packed.tarball, [await pinned("typescript")]);
    writeFileSync(join(portable, "portable.ts"), PORTABLE_CONSUMER);
  }, 300_000);
  afterAll(() => {
    if (portable) rmSync(portable, { recursive: true, force: true });
  });

  /** tsc's output on the portable consumer with `lib`: empty when it type-checks. */
  async function check(lib: readonly string[]): Promise<string> {
    writeFileSync(join(portable, "tsconfig.json"), portableConfig(lib));
    return run(process.execPath, [join(portable, "node_modules/typescript/bin/tsc"), "-p", portable], { cwd: portable }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
  }

  it("type-checks with --strict (and stricter) against the Web API types alone: a browser's or Deno's (DOM), a Worker's (WebWorker)", async () => {
    expect(existsSync(join(portable, "node_modules/@types/node"))).toBe(false);
    expect(existsSync(join(portable, "node_modules/hanja-api/lib/runtime/core/index.d.ts"))).toBe(true);
    expect(await check(["ES2023", "DOM"])).toBe("");
    expect(await check(["ES2023", "DOM", "DOM.Iterable"])).toBe("");
    expect(await check(["ES2023", "WebWorker"])).toBe("");
  });

  it("needs the Web API types of some lib: with ECMAScript's alone, tsc names Request and Response (what docs/embedding.md says to add)", async () => {
    const output = await check(["ES2023"]);
    expect(output).toMatch(/error TS2304: Cannot find name 'Request'/);
    expect(output).toMatch(/error TS2304: Cannot find name 'Response'/);
    // Never a Node name: the portable entry's types refer to none.
    expect(output).not.toMatch(/Buffer|NodeJS|node:/);
  });
});
