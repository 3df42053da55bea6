// What the in-process probes share: two requests answered from the app's remembered replies (a
// character detail and a reading search) and the loop that times `app.handle` over them.
import type { App } from "../../../runtime/core/app.ts";

const headers = new Headers({ host: "127.0.0.1:8080", "accept-encoding": "gzip, br" });
const requests = [`/hanja/v1/hanja/${encodeURIComponent("水")}`, `/hanja/v1/hanja?q=${encodeURIComponent("수")}`].map((target) => ({
  method: "GET",
  url: `http://127.0.0.1:8080${target}`,
  headers,
}));

/**
 * µs a request of `n` calls of `app.handle` alternating the two requests, after answering each once
 * (which builds and remembers the replies, compression included) and a warm-up of `n / 4`. `cpu`
 * times the process's CPU rather than the clock: on a shared machine other tenants stretch the
 * clock, not the work.
 */
export async function timeHandle(app: App, n: number, clock: "wall" | "cpu"): Promise<number> {
  for (const request of requests) await app.handle(request);
  for (let i = 0; i < n / 4; i++) app.handle(requests[i & 1]!);
  if (clock === "wall") {
    const started = performance.now();
    for (let i = 0; i < n; i++) app.handle(requests[i & 1]!);
    return ((performance.now() - started) * 1000) / n;
  }
  const started = process.cpuUsage();
  for (let i = 0; i < n; i++) app.handle(requests[i & 1]!);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / n;
}

/** The median of the rounds' figures. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
