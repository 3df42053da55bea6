// Baseline: a plain node:http server answering a fixed JSON body: `{"hello":"world"}`, or the
// bytes of BODY_FILE (to compare with an endpoint that answers a body of that size), with the
// headers of HEADERS_FILE (a JSON object) instead of the one Content-Type when given. With
// PER_TURN=1 it writes its answers as the service's Node listener does: those of one turn of the
// event loop together, after its reads (setImmediate), instead of each inside its request event.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const body = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE) : Buffer.from(JSON.stringify({ hello: "world" }));
const headers = {
  ...(process.env.HEADERS_FILE ? JSON.parse(readFileSync(process.env.HEADERS_FILE, "utf8")) : { "Content-Type": "application/json; charset=utf-8" }),
  "Content-Length": body.length,
};
const answer = (res) => res.writeHead(200, headers).end(body);
const ready = [];
const answerReady = () => {
  for (const res of ready.splice(0)) answer(res);
};
const server = createServer(
  process.env.PER_TURN === "1"
    ? (_req, res) => {
        if (ready.push(res) === 1) setImmediate(answerReady);
      }
    : (_req, res) => answer(res),
);
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${server.address().port}`, runtime: "node-baseline" }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
