// Baseline: Deno.serve answering a fixed JSON body: `{"hello":"world"}`, or the bytes of BODY_FILE
// (with the headers of HEADERS_FILE, a JSON object, instead of the one Content-Type when given; then
// the answer is a clone of one ready Response, the fastest way Deno.serve offers for a fixed answer).
interface DenoLike {
  env: { get(k: string): string | undefined };
  readFileSync(path: string): Uint8Array<ArrayBuffer>;
  serve(options: object, handler: () => Response): unknown;
}
const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
const file = deno.env.get("BODY_FILE");
const body = file ? deno.readFileSync(file) : new TextEncoder().encode(JSON.stringify({ hello: "world" }));
const headersFile = deno.env.get("HEADERS_FILE");
const headers: Record<string, string> = headersFile
  ? JSON.parse(new TextDecoder().decode(deno.readFileSync(headersFile)))
  : { "Content-Type": "application/json; charset=utf-8" };
const ready = new Response(body, { headers });
deno.serve(
  {
    port: Number(deno.env.get("PORT") ?? 0),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) =>
      console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${port}`, runtime: "deno-baseline" })),
  },
  headersFile ? () => ready.clone() : () => new Response(body, { headers }),
);
export {};
