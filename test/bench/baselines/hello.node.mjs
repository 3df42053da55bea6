// Baseline: a plain node:http server answering a fixed JSON body.
import { createServer } from "node:http";

const body = JSON.stringify({ hello: "world" });
const server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${server.address().port}`, runtime: "node-baseline" }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
