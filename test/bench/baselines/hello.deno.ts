// Baseline: Deno.serve answering a fixed JSON body.
const deno = (globalThis as unknown as { Deno: { env: { get(k: string): string | undefined }; serve: (o: object, h: () => Response) => unknown } }).Deno;
const body = JSON.stringify({ hello: "world" });
deno.serve(
  {
    port: Number(deno.env.get("PORT") ?? 0),
    hostname: "127.0.0.1",
    onListen: ({ port }: { port: number }) => console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://127.0.0.1:${port}`, runtime: "deno-baseline" })),
  },
  () => new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
);
export {};
