/**
 * The one server program for every runtime: boots the app and serves it with the runtime's own
 * server. This is the entry of the esbuild bundle and of `npm start` / `start:bun` / `start:deno`.
 */
import type { DistFiles } from "../core/data/load.ts";
import { boot, onShutdown } from "./boot.ts";
import { detectRuntime } from "./listening.ts";

/** Boots and serves; `dist` is given by the compiled binary, which carries its data inside. */
export async function startServer(options: { dist?: DistFiles; runtime?: string } = {}): Promise<void> {
  const runtime = detectRuntime();
  const booted = await boot({ runtime: options.runtime ?? runtime, env: process.env, argv: process.argv.slice(2), dist: options.dist });
  const listening =
    runtime === "bun"
      ? await (await import("./serve.bun.ts")).serveBun(booted)
      : runtime === "deno"
        ? await (await import("./serve.deno.ts")).serveDeno(booted)
        : await (await import("./serve.node.ts")).serveNode(booted);
  const host = booted.config.host.includes(":") ? `[${booted.config.host}]` : booted.config.host;
  console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://${host}:${listening.port}`, runtime: options.runtime ?? runtime }));
  onShutdown(() => listening.stop(), booted);
}
