/** Serving on Deno with Deno.serve. */
import type { Booted } from "./boot.ts";
import { andThen } from "../core/quota/meter.ts";
import type { Listening } from "./listening.ts";
import { closing, respond } from "./responses.ts";

interface DenoServer {
  shutdown(): Promise<void>;
}
interface DenoServeInfo {
  remoteAddr: { hostname: string };
}
interface DenoNamespace {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): DenoServer;
}

export function serveDeno({ app, config }: Booted): Promise<Listening> {
  const deno = (globalThis as unknown as { Deno: DenoNamespace }).Deno;
  let draining = false;
  return new Promise((resolve) => {
    const server = deno.serve(
      {
        port: config.port,
        hostname: config.host,
        onListen: ({ port }) => resolve({ port, drain: () => void (draining = true), stop: () => server.shutdown(), abort: () => {} }),
      },
      (request, info) => {
        const answer = respond(app.handle(request, new PeerOf(info)));
        return draining ? andThen(answer, closing) : answer;
      },
    );
  });
}

/** The peer address, looked up only when a route asks for it (interface B's demo quota). */
class PeerOf {
  constructor(private readonly info: DenoServeInfo) {}
  get clientAddress(): string {
    return this.info.remoteAddr.hostname;
  }
}
