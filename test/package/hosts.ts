/**
 * The small hosts the package tests run in a fresh project, as a user would write them: plain
 * JavaScript importing the installed `hanja-api`, each printing the server's `listening` line on
 * stderr (the line the test helpers wait for).
 */

const LISTENING = (url: string) => `console.error(JSON.stringify({ msg: "listening", url: ${url} }))`;

/** Plain `node`: the three lines of the README, plus the line saying where it listens. */
export const NODE_HOST = `import { createServer } from "node:http";
import { createBundledApp, nodeListener } from "hanja-api/node";
const server = createServer(nodeListener(createBundledApp())).listen(0, "127.0.0.1", () => ${LISTENING("`http://127.0.0.1:${server.address().port}`")});
`;

/** Bun.serve with the portable core's `fetch`, the data read from the package. */
export const BUN_HOST = `import { createApp } from "hanja-api";
import { loadBundledData, nodeCompressors } from "hanja-api/node";
const app = createApp({ dist: loadBundledData(), compressors: nodeCompressors });
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request, server) => app.fetch(request, { clientAddress: server.requestIP(request)?.address }) });
${LISTENING("`http://127.0.0.1:${server.port}`")};
`;

/** Deno.serve, the package taken from the project's node_modules. */
export const DENO_HOST = `import { createBundledApp } from "hanja-api/node";
const app = createBundledApp();
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => ${LISTENING("`http://127.0.0.1:${port}`")} }, (request, info) => app.fetch(request, { clientAddress: info.remoteAddr.hostname }));
`;

/** A Hono application on @hono/node-server with the service mounted under /lexicon. */
export const HONO_HOST = `import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createBundledApp } from "hanja-api/node";
const hanja = createBundledApp({ mountPath: "/lexicon" });
const app = new Hono();
app.get("/", (c) => c.text("host"));
// Hono hands a mounted handler the request without the prefix, then its env: on node-server, the Node request.
app.mount("/lexicon", (request, env) => hanja.fetch(request, { clientAddress: env.incoming.socket.remoteAddress }));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => ${LISTENING("`http://127.0.0.1:${info.port}/lexicon`")});
`;

/** Opens the store named on the command line where its optional driver is not installed: prints the error. */
export const STORE_WITHOUT_DRIVER = `import { openQuotaStore } from "hanja-api/stores";
const choice = process.argv[2] === "redis" ? { kind: "redis", url: "redis://127.0.0.1:1/0" } : { kind: "sqlite", path: ":memory:" };
try {
  await openQuotaStore(choice);
  console.log("opened");
} catch (error) {
  console.log(error.message);
}
`;

/** A TypeScript consumer: every export used with its shipped types, and a wrong call the types must refuse. */
export const TS_CONSUMER = `import { type App, type AppOptions, type QuotaStore, MemoryQuotaStore, DIST_FORMAT, createApp } from "hanja-api";
import { createBundledApp, loadBundledData, loadDistFiles, nodeCompressors, nodeListener, clientErrorListener } from "hanja-api/node";
import { openQuotaStore } from "hanja-api/stores";
import { page } from "hanja-api/page";
import { createServer } from "node:http";

const store: QuotaStore = await openQuotaStore({ kind: "memory" });
const options: AppOptions = { dist: loadBundledData(), store, compressors: nodeCompressors, mountPath: "/api", page };
const app: App = createApp(options);
const bundled: App = createBundledApp({ store: new MemoryQuotaStore() });
const server = createServer(nodeListener(bundled));
server.on("clientError", clientErrorListener(bundled));
const response: Response = await app.fetch(new Request("http://localhost/hanja/v1/meta"), { clientAddress: "127.0.0.1" });
const format: number = DIST_FORMAT;
loadDistFiles("dist");
// @ts-expect-error: the store kind is checked
await openQuotaStore({ kind: "mongodb" });
// @ts-expect-error: dist must be the files' text
createApp({ dist: 42 });
export { response, format };
`;

export const TS_CONFIG = `${JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: ["node"], lib: ["ES2023", "DOM"] }, include: ["consumer.ts"] }, null, 2)}\n`;

/**
 * A consumer of the portable entry alone (`hanja-api`), as a Worker, Deno or browser-bundled app
 * writes one: every export used, no Node module and no `@types/node` installed.
 */
export const PORTABLE_CONSUMER = `import {
  type AccessLogEntry,
  type App,
  type AppOptions,
  AppOptionError,
  type Compressors,
  type DistFiles,
  DIST_FILES,
  DIST_FORMAT,
  DuplicateApplicationError,
  type KeyRecord,
  MemoryQuotaStore,
  type QuotaStore,
  type ReadFormat,
  type ReadOptions,
  type ReadResult,
  type ServeInfo,
  StoreUnavailableError,
  createApp,
  readHanja,
} from "hanja-api";

declare const dist: DistFiles;
const store: QuotaStore = new MemoryQuotaStore();
const logged: AccessLogEntry[] = [];
const options: AppOptions = { dist, store, log: (entry) => void logged.push(entry) };
const app: App = createApp(options);
const info: ServeInfo = { clientAddress: "127.0.0.1" };
const response: Response = await app.fetch(new Request("http://localhost/hanja/v1/meta"), info);
const key: KeyRecord | null = await store.keyById("key_x");
const names: string = DIST_FILES.manifest;
const format: number = DIST_FORMAT;
const failures: Error[] = [new StoreUnavailableError("down"), new AppOptionError("mountPath", "bad")];
// @ts-expect-error: dist must be the files' text
createApp({ dist: 42 });
export { response, key, names, format, failures, DuplicateApplicationError, readHanja };
export type { Compressors, ReadFormat, ReadOptions, ReadResult };
`;

/**
 * The portable consumer's strictest settings, with the Web API types of \`lib\` (DOM for a browser
 * or Deno, WebWorker for a Worker) and no others: \`types: []\` loads no \`@types\` package.
 */
export function portableConfig(lib: readonly string[]): string {
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noPropertyAccessFromIndexSignature: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    types: [],
    lib,
  };
  return `${JSON.stringify({ compilerOptions, include: ["portable.ts"] }, null, 2)}\n`;
}
