// Requests cut by a graceful shutdown under keep-alive load: CLIENTS clients loop on a character
// detail over keep-alive connections, reconnecting after each answer carrying Connection: close,
// and the server gets SIGTERM after 500 ms; SHUTDOWNS times per runtime. A request is cut when it
// was sent on a connection the server had (the connection was made) and no byte of an answer came
// back; a connection refused once the server stopped listening is not a cut. RECONNECT=at-once:
// a client hangs up and reconnects as soon as an answer carries Connection: close, as wrk does (by
// default it waits for the server to close the connection first).
//   npx tsx test/bench/probes/shutdown-cuts.ts
//   RUNTIMES=node,bun SHUTDOWNS=5 CLIENTS=20 PAUSE_MS=0 npx tsx test/bench/probes/shutdown-cuts.ts
//   RUNTIMES=deno RECONNECT=at-once npx tsx test/bench/probes/shutdown-cuts.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cutRequests, keepAliveLoad } from "../../conformance/keepAliveLoad.ts";
import { environment, sourceCommand } from "../../conformance/servers.ts";
import { spawnServer } from "../../helpers/server.ts";

/** Another checkout to serve from (a worktree of an older commit, for the "before" figures, with a dist/). */
const SOURCE_ROOT = process.env.SOURCE_ROOT;
const RUNTIMES = (process.env.RUNTIMES ?? "node,bun,deno").split(",") as ("node" | "bun" | "deno")[];
const SHUTDOWNS = Number(process.env.SHUTDOWNS ?? 5);
const CLIENTS = Number(process.env.CLIENTS ?? 20);
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 0);
const RECONNECT = process.env.RECONNECT === "at-once" ? "at-once" : "after-close";
const PATH = `/hanja/v1/hanja/${encodeURIComponent("水")}`;

for (const runtime of RUNTIMES) {
  const cuts: number[] = [];
  const details: string[] = [];
  for (let i = 0; i < SHUTDOWNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), "hanja-shutdown-cuts-"));
    const env = environment({ QUOTA_DB: join(dir, "quota.sqlite") });
    const server = await spawnServer({ ...sourceCommand(runtime, env), env, cwd: SOURCE_ROOT });
    let signalledAt = 0;
    const load = keepAliveLoad({
      url: server.url,
      path: PATH,
      clients: CLIENTS,
      pauseMs: PAUSE_MS,
      reconnect: RECONNECT,
      signalled: () => signalledAt > 0,
      done: () => signalledAt > 0 && Date.now() > signalledAt + 3_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    signalledAt = Date.now();
    server.kill("SIGTERM");
    const [outcome, code] = await Promise.all([load, server.exit]);
    const exitMs = Date.now() - signalledAt;
    rmSync(dir, { recursive: true, force: true });
    cuts.push(cutRequests(outcome));
    details.push(
      `cut ${cutRequests(outcome)} (new ${outcome.resetNew}, kept-alive ${outcome.idleRaces}), refused ${outcome.refused}, ` +
        `${outcome.answers} answers, bad ${outcome.bad.length}, exit ${code} after ~${exitMs} ms`,
    );
  }
  console.log(
    `${runtime}: ${cuts.reduce((a, b) => a + b, 0)} requests cut in ${SHUTDOWNS} shutdowns (${cuts.join(", ")}), ${CLIENTS} clients reconnecting ${RECONNECT}`,
  );
  for (const line of details) console.log(`  ${line}`);
}
