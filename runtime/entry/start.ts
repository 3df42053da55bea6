/**
 * The one server program for every runtime: boots the app and serves it with the runtime's own
 * server. This is the entry of the esbuild bundle and of `npm start` / `start:bun` / `start:deno`.
 */
import { isIP } from "node:net";
import { resolve } from "node:path";
import type { DistFiles } from "../core/data/load.ts";
import { type LicenseText, boot, onShutdown } from "./boot.ts";
import { type Listening, detectRuntime } from "./listening.ts";

/** Boots and serves; `dist` and `licenses` are given by the compiled binary, which carries its data and their licences inside. */
export async function startServer(options: { dist?: DistFiles; runtime?: string; licenses?: readonly LicenseText[] } = {}): Promise<void> {
  const runtime = detectRuntime();
  const booted = await boot({
    runtime: options.runtime ?? runtime,
    env: process.env,
    argv: process.argv.slice(2),
    dist: options.dist,
    licenses: options.licenses,
  });
  const host = booted.config.host.includes(":") ? `[${booted.config.host}]` : booted.config.host;
  let listening: Listening;
  try {
    listening =
      runtime === "bun"
        ? await (await import("./serve.bun.ts")).serveBun(booted)
        : runtime === "deno"
          ? await (await import("./serve.deno.ts")).serveDeno(booted)
          : await (await import("./serve.node.ts")).serveNode(booted);
  } catch (error) {
    // A HOST that is no address of this machine, or a PORT in use: a setting to change, like a bad value.
    console.error(`hanja-api: cannot listen on ${host}:${booted.config.port} (HOST, PORT): ${listenFailure(error, booted.config.host)}`);
    await booted.app.close();
    process.exit(2);
  }
  // Where the keys and counts are: with the binary's default, a folder the operator did not name.
  const quotaDb = booted.config.quotaStore === "sqlite" ? { quota_db: resolve(String(booted.config.quotaDb)) } : {};
  console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://${host}:${listening.port}`, runtime: options.runtime ?? runtime, ...quotaDb }));
  if (!booted.config.bankAccount) {
    // Keys are still issued; their payment instructions just name no account to pay into.
    console.error(JSON.stringify({ level: "warn", msg: "BANK_ACCOUNT is not set: POST /subscribe answers with payment instructions that name no account" }));
  }
  if (!booted.config.quizSecret) {
    // Quizzes drawn with reveal=0 are still graded, but only by this process and until it stops.
    console.error(
      JSON.stringify({
        level: "warn",
        msg: "QUIZ_SECRET is not set: quizzes drawn with reveal=0 are signed with a secret of this process, so POST /grade grades them only here and not after a restart; set the same QUIZ_SECRET on every instance",
      }),
    );
  }
  onShutdown(listening, booted);
}

/** Why listening failed, in the operator's terms, whatever the runtime's error looks like. */
function listenFailure(error: unknown, hostSetting: string): string {
  const { code, message, syscall } = error as { code?: string; message?: string; syscall?: string };
  const text = `${code ?? ""} ${message ?? String(error)}`;
  if (/EADDRINUSE|AddrInUse|address already in use|port \S* ?in use/i.test(text)) return "the port is in use";
  if (/EADDRNOTAVAIL|ENOTFOUND|EAI_|AddrNotAvailable|not available|nodename nor servname|failed to lookup|Name or service not known/i.test(text))
    return "HOST is not an address of this machine";
  if (/EACCES|PermissionDenied|permission denied/i.test(text)) return "permission denied (ports below 1024 need privileges)";
  // Bun reports a HOST name that does not resolve with whatever error number was set last
  // (EINVAL, or ENOENT after start-up has looked for a file): any other failure of a name is that.
  if (syscall === "listen" && isIP(hostSetting) === 0) return "HOST is not an address of this machine";
  if (/EINVAL/.test(text)) return "HOST is not an address this machine can listen on";
  return (message ?? String(error)).split("\n")[0] ?? "";
}
