// Baseline: Bun.serve answering a fixed JSON body: `{"hello":"world"}`, or the bytes of BODY_FILE.
import { readFileSync } from "node:fs";

const body = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE) : Buffer.from(JSON.stringify({ hello: "world" }));
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch: () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
});
console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${server.port}`, runtime: "bun-baseline" }));
export {};
