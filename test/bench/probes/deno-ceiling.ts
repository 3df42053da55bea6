// What Deno.serve itself costs for the character-detail answer, without the service: a server
// answering a clone of one ready Response (the fastest way to answer on Deno) with the detail
// body of 水 and either one header (MODE=h1) or the service's six (MODE=h6), optionally also
// reading the request URL and the two headers the service negotiates on (MODE=h6-url).
// Compare with the hello baseline and with the service's detail in the same session:
//   curl -s localhost:8080/hanja/v1/hanja/%E6%B0%B4 > /tmp/detail.json   (from a running server)
//   BODY_FILE=/tmp/detail.json MODE=h6-url PORT=46011 deno run -A test/bench/probes/deno-ceiling.ts
//   wrk -t1 -c50 -d4s http://127.0.0.1:46011/
interface DenoLike {
  env: { get(k: string): string | undefined };
  readFileSync(path: string): Uint8Array<ArrayBuffer>;
  serve(options: object, handler: (request: Request) => Response): unknown;
  exit(code: number): never;
}
const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
const mode = deno.env.get("MODE") ?? "h6-url";
const body = deno.readFileSync(deno.env.get("BODY_FILE") ?? "/tmp/detail.json");
const six = {
  "Content-Type": "application/json; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag",
  "Cache-Control": "public, max-age=86400",
  Vary: "Accept-Encoding",
  ETag: '"f36323b73c54de7e01629cd880624654"',
};
const ready = new Response(body, { headers: mode === "h1" ? { "Content-Type": six["Content-Type"] } : six });
const onListen = ({ port }: { port: number }) =>
  console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${port}`, runtime: `deno-probe-${mode}` }));
deno.serve({ port: Number(deno.env.get("PORT") ?? 46011), hostname: "127.0.0.1", onListen }, (request) => {
  if (mode === "h6-url") {
    void request.url;
    request.headers.get("accept-encoding");
    request.headers.get("if-none-match");
  }
  return ready.clone();
});
export {};
