/**
 * A small HTTP/1.1 client over node:http for the embedding tests: unlike `fetch` it can pick the
 * connection (an `Agent` per simulated client) and the local address it connects from, and it
 * reports the local port, so a test can show which TCP client a request came from.
 */
import { type Agent, type IncomingHttpHeaders, request } from "node:http";
import { gunzipSync } from "node:zlib";

/** A response read whole. */
export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as text, gunzipped when the response is gzip-encoded. */
  text: string;
  /** The local port of the connection the request went over. */
  localPort: number | undefined;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Keeps the connection of one simulated client. Default: a new connection. */
  agent?: Agent;
  /** The address to connect from (e.g. `127.0.0.2`, another loopback client). */
  localAddress?: string;
}

/**
 * Sends one request and reads the whole response. The path after the origin is sent as written
 * (`/api/../x` stays that), not normalised the way `new URL` would.
 */
export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const [, origin = "", path = ""] = /^(https?:\/\/[^/?#]+)(.*)$/.exec(url) ?? [];
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const init = {
      hostname,
      port,
      path: path || "/",
      method: options.method ?? "GET",
      headers: options.headers,
      agent: options.agent ?? false,
      localAddress: options.localAddress,
    };
    const req = request(init, (res) => {
      const localPort = res.socket?.localPort;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const text = (res.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, localPort });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
