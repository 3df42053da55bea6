// Baseline: Bun.serve answering a fixed JSON body: `{"hello":"world"}`, or the bytes of BODY_FILE
// (with the headers of HEADERS_FILE, a JSON object, instead of the one Content-Type when given; then
// the answer is a clone of one ready Response, the fastest way Bun.serve offers for a fixed answer).
import { readFileSync } from "node:fs";

const body = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE) : Buffer.from(JSON.stringify({ hello: "world" }));
const headers: Record<string, string> = process.env.HEADERS_FILE
  ? JSON.parse(readFileSync(process.env.HEADERS_FILE, "utf8"))
  : { "Content-Type": "application/json; charset=utf-8" };
const ready = new Response(body, { headers });
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? "127.0.0.1",
  fetch: process.env.HEADERS_FILE ? () => ready.clone() : () => new Response(body, { headers }),
});
console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${server.port}`, runtime: "bun-baseline" }));
