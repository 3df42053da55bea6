/**
 * A node:http connection whose client pipelines requests and never reads stops being read: with
 * `nodeListener` alone (as an embedding server runs it) after node:http's first read, about 1,400
 * short requests, and on the Node server, which parses each connection's input in slices
 * (`parseInSlices`), after a few dozen. Pipelined requests from a client that does read are all
 * answered, in order, slices or not.
 */
import { type Server, createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { nodeListener } from "../../runtime/entry/nodeListener.ts";
import { parseInSlices } from "../../runtime/entry/slicedInput.ts";
import { testApp } from "../helpers/app.ts";
import { flood } from "../helpers/pipelining.ts";
import { rawExchange } from "../helpers/server.ts";

const servers: Server[] = [];
const floods: { release(): void }[] = [];
afterEach(async () => {
  for (const held of floods.splice(0)) held.release();
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    }),
  );
});

/** A server counting the requests it was handed; `sliced` adds the Node server's slicing. */
async function listen(sliced: boolean): Promise<{ port: number; seen(): number }> {
  const listener = nodeListener(testApp());
  let seen = 0;
  const server = createServer((req, res) => {
    seen++;
    listener(req, res);
  });
  if (sliced) server.on("connection", parseInSlices);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, seen: () => seen };
}

const PIPELINED = 5_000;

describe("pipelined requests on node:http", () => {
  it("nodeListener alone: a connection that does not read is read no further than node:http's first read", async () => {
    const server = await listen(false);
    floods.push(flood(server.port, 1, PIPELINED, ["/openapi.json"]));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // When every answer waited for the end of the turn, node:http read all 5,000 in that turn.
    expect(server.seen()).toBeGreaterThan(0);
    expect(server.seen()).toBeLessThan(2_000);
  });

  it("in slices: a connection that does not read is read a few dozen requests deep", async () => {
    const server = await listen(true);
    floods.push(flood(server.port, 1, PIPELINED, ["/openapi.json"]));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const seen = server.seen();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(200);
    expect(server.seen(), "it went on reading").toBe(seen);
  });

  for (const sliced of [false, true]) {
    it(`${sliced ? "in slices" : "nodeListener alone"}: a client that reads gets every pipelined answer, in order`, async () => {
      const server = await listen(sliced);
      const paths = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? "/healthz" : "/hanja/v1/hanja/nope"));
      const requests = paths.map((path, i) => `GET ${path} HTTP/1.1\r\nHost: x\r\n${i === paths.length - 1 ? "Connection: close\r\n" : ""}\r\n`).join("");
      const answer = await rawExchange(server.port, requests);
      const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) [A-Za-z ]+\r\n/g)].map((match) => Number(match[1]));
      expect(statuses).toEqual(paths.map((path) => (path === "/healthz" ? 200 : 400)));
    });
  }
});
