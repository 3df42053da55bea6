/**
 * At the edge: the installed package bundled with its data (esbuild, data files as text modules)
 * into one module worker and served by workerd, Cloudflare's runtime, where there is no file
 * system. A character detail, an English search and a seeded quiz equal the standalone app's; a
 * quiz drawn with `reveal=0` is graded there; the script's size and workerd's start-up and first answers are printed for the README's limits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { ROOT } from "../helpers/app.ts";
import { STROKE_FILES } from "../../runtime/format/dist.ts";
import { type Packed, freshProject, pack } from "./packed.ts";
import { WORKER, WORKERD_CONFIG } from "./worker.ts";

const WORKERD = join(ROOT, "node_modules/.bin/workerd");

let packed: Packed;
let project: string;
let workerd: ChildProcess;
let url: string;
let standalone: App;
let startMs: number;

/** Starts workerd with the config in `dir`; resolves with its URL once the control descriptor reports the port. */
function startWorkerd(dir: string): Promise<string> {
  const started = performance.now();
  workerd = spawn(WORKERD, ["serve", "config.capnp", "--socket-addr", "http=127.0.0.1:0", "--control-fd", "3"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let stderr = "";
  workerd.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workerd did not listen within 60 s:\n${stderr}`)), 60_000);
    workerd.once("exit", (code) => reject(new Error(`workerd exited with ${code}:\n${stderr}`)));
    let control = "";
    workerd.stdio[3]?.on("data", (chunk: Buffer) => {
      control += chunk.toString();
      const event = /\{"event":"listen","socket":"http","port":(\d+)\}/.exec(control);
      if (!event) return;
      clearTimeout(timer);
      startMs = performance.now() - started;
      resolve(`http://127.0.0.1:${event[1]}`);
    });
  });
}

beforeAll(async () => {
  packed = await pack();
  project = await freshProject(packed.tarball);
  writeFileSync(join(project, "worker.mjs"), WORKER);
  writeFileSync(join(project, "config.capnp"), WORKERD_CONFIG);
  // What Wrangler does with Text rules for the data: each file a string module, all in one script.
  await build({
    absWorkingDir: project,
    entryPoints: ["worker.mjs"],
    outfile: join(project, "worker.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    loader: { ".json": "text", ".jsonl": "text", ".md": "text" },
    minify: true,
    logLevel: "silent",
  });
  url = await startWorkerd(project);
  // The package's data: the build's without the stroke data, which the package leaves out (so both
  // details say `stroke_order: null`).
  const full = loadDistFiles(join(ROOT, "dist"));
  const packaged = Object.fromEntries(
    Object.keys(full)
      .filter((name) => !STROKE_FILES.includes(name))
      .map((name) => [name, full[name] as string | Uint8Array]),
  );
  standalone = createApp({ dist: packaged });
}, 420_000);

afterAll(async () => {
  workerd?.kill("SIGTERM");
  await standalone?.close();
  packed?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

async function answer(response: Response): Promise<{ status: number; type: string | null; etag: string | null; body: unknown }> {
  const body = JSON.parse(await response.text()) as { quiz?: { quiz_id?: string } };
  if (body.quiz?.quiz_id) body.quiz.quiz_id = "qz_";
  return { status: response.status, type: response.headers.get("content-type"), etag: response.headers.get("etag"), body };
}

describe("the package in workerd, data imported as modules", () => {
  it("reports the script's size and the start-up against the platform's limits", () => {
    const script = readFileSync(join(project, "worker.js"));
    const gzipped = gzipSync(script).length;
    console.log(`workerd: script ${script.length} bytes, ${gzipped} gzipped; listening ${startMs.toFixed(0)} ms after spawn`);
    // Cloudflare's limit is on the compressed script: 3 MB on the free plan, 10 MB on paid plans.
    expect(gzipped).toBeLessThan(3_000_000);
  });

  it.each(["/hanja/v1/hanja/%E6%B0%B4", "/hanja/v1/hanja?q=water", "/quiz/v1/quiz?seed=7"])("answers %s exactly like the standalone app", async (path) => {
    const started = performance.now();
    const edge = await answer(await fetch(`${url}${path}`, { headers: { "Accept-Encoding": "identity" } }));
    console.log(`workerd: ${path} answered in ${(performance.now() - started).toFixed(0)} ms`);
    const direct = await answer(await standalone.fetch(new Request(`http://localhost${path}`), { clientAddress: "127.0.0.1" }));
    expect(edge.status).toBe(200);
    expect(edge).toEqual(direct);
    if (path.startsWith("/hanja/v1/hanja/%")) expect((edge.body as { stroke_order: unknown }).stroke_order).toBe(null);
  });

  it("grades a quiz drawn there with reveal=0: its id encrypted and opened by workerd's Web Crypto (HKDF, AES-GCM)", async () => {
    const drawn = (await (await fetch(`${url}/quiz/v1/quiz?reveal=0&seed=7&type=hunum_to_hanja`)).json()) as { quiz: { quiz_id: string } };
    expect(drawn.quiz.quiz_id).toMatch(/^qz_[0-9A-Za-z_-]{56}$/);
    const grade = async (quiz_id: string, answer: string) =>
      fetch(`${url}/quiz/v1/grade`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ quiz_id, answer }),
      });
    // Graded twice: the first grade names the right key, the second, sending it, is correct.
    const first = (await (await grade(drawn.quiz.quiz_id, "1")).json()) as { result: { correct: boolean; answer: string } };
    expect(first.result.correct).toBe(first.result.answer === "1");
    const graded = await grade(drawn.quiz.quiz_id, first.result.answer);
    expect(graded.status).toBe(200);
    expect(await graded.json()).toMatchObject({ result: { correct: true, answer: first.result.answer } });
    const altered = `${drawn.quiz.quiz_id.slice(0, -1)}${drawn.quiz.quiz_id.endsWith("A") ? "B" : "A"}`;
    expect(await (await grade(altered, "1")).json()).toMatchObject({ code: "invalid_parameter", param: "quiz_id" });
  });

  it("answers a bad parameter with the same 400 problem, naming it", async () => {
    const response = await fetch(`${url}/hanja/v1/hanja?strokes=abc`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_parameter", param: "strokes" });
  });
});
