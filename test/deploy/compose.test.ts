/**
 * compose.yaml brought up with podman where podman can run: an instance of the service with its
 * Redis (`podman-compose up -d api1`, which starts `redis` first), asked from inside its container
 * (the image has no curl: bash's /dev/tcp, as its HEALTHCHECK does). It counts in Redis: one
 * client's demo calls go on counting after the instance is restarted.
 *
 * It needs podman and podman-compose, a host that lets podman run a container (on a cgroups-v1 or
 * hybrid host: runc and lowered limits in a CONTAINERS_CONF file, docs/operating.md "Containers"),
 * and the images built (`API_IMAGE`, default localhost/hanja-api:latest; `REDIS_IMAGE`, default the
 * compose file's): building them takes minutes and a registry or Debian's archive, so the test
 * does not. Whatever is missing, it is skipped, and the reason printed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/app.ts";

const COMPOSE = join(ROOT, "compose.yaml");
const PROJECT = `hanja-compose-test-${process.pid}`;
const API_IMAGE = process.env.API_IMAGE ?? "localhost/hanja-api:latest";
const REDIS_IMAGE = process.env.REDIS_IMAGE ?? "docker.io/library/redis:7.4-bookworm";

/** A command's status and output, never throwing (30 s at most unless told). */
function run(command: string, args: readonly string[], timeout = 30_000) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout, env: { ...process.env, API_IMAGE, REDIS_IMAGE } });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`.trim() };
}

/** Why the test cannot run here, or undefined when it can. */
function missing(): string | undefined {
  if (!run("sh", ["-c", "command -v podman"]).ok) return "podman is not installed (apt-get install podman podman-compose)";
  if (!run("sh", ["-c", "command -v podman-compose"]).ok) return "podman-compose is not installed (apt-get install podman-compose)";
  const info = run("podman", ["info", "--format", "{{.Host.CgroupsVersion}}"]);
  if (!info.ok) return `podman info fails: ${info.output.slice(0, 300)}`;
  for (const image of [API_IMAGE, REDIS_IMAGE]) {
    if (!run("podman", ["image", "exists", image]).ok)
      return `the image ${image} is not there: build it as docs/operating.md "Containers" says (or name another with API_IMAGE / REDIS_IMAGE)`;
  }
  const tried = run("podman", ["run", "--rm", "--entrypoint", "/bin/true", API_IMAGE], 60_000);
  if (!tried.ok) {
    // The runtime's own error, not podman's notes around it (the healthcheck timers it cannot set without systemd).
    const error =
      tried.output
        .split("\n")
        .filter((line) => line.startsWith("Error:"))
        .join(" ") || tried.output.slice(0, 300);
    return `podman cannot run a container on this host (cgroups ${info.output}): ${error}; see docs/operating.md "Containers" for what a host needs`;
  }
  return undefined;
}

const reason = missing();
if (reason !== undefined) console.log(`compose test skipped: ${reason}`);

/** `request` sent from inside a container to its own server; the whole answer. */
function ask(container: string, target: string, headers = ""): string {
  const script = `exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET ${target} HTTP/1.1\\r\\nHost: x\\r\\n${headers}Connection: close\\r\\n\\r\\n' >&3 && cat <&3`;
  return execFileSync("podman", ["exec", container, "bash", "-c", script], { encoding: "utf8", timeout: 15_000 });
}

/** Polls `check` every 500 ms for at most `ms`; throws naming `what`. */
async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    try {
      if (check()) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`never: ${what}`);
}

describe.skipIf(reason !== undefined)("compose.yaml under podman", () => {
  const api = `${PROJECT}_api1_1`;
  const redis = `${PROJECT}_redis_1`;
  afterAll(() => {
    // The containers with their anonymous volumes (the image's VOLUME) first: compose's down leaves those.
    run("podman", ["rm", "-f", "-v", api, redis], 60_000);
    run("podman-compose", ["-p", PROJECT, "-f", COMPOSE, "down"], 120_000);
    run("podman", ["volume", "rm", `${PROJECT}_redis-data`]);
    run("podman", ["network", "rm", `${PROJECT}_default`]);
  });

  it("brings up an instance with its Redis: healthy, the store answering, one client's demo calls counted in Redis across a restart", {
    timeout: 240_000,
  }, async () => {
    const service = (parse(readFileSync(COMPOSE, "utf8")) as { services: Record<string, { environment: Record<string, string> }> }).services.api1;
    expect(service?.environment.QUOTA_STORE).toBe("redis");
    const up = run("podman-compose", ["-p", PROJECT, "-f", COMPOSE, "up", "-d", "api1"], 180_000);
    expect(up.ok, up.output).toBe(true);
    await until(() => ask(api, "/healthz").includes('"store":"ok"'), "/healthz says the Redis store answers");
    const remaining = () => /X-RateLimit-Remaining: (\d+)/i.exec(ask(api, "/quiz/v1/idiom/1", "X-Forwarded-For: 192.0.2.60\\r\\n"))?.[1];
    expect(remaining()).toBe("29");
    expect(remaining()).toBe("28");
    expect(Number(execFileSync("podman", ["exec", redis, "redis-cli", "dbsize"], { encoding: "utf8" }).trim())).toBeGreaterThan(0);
    // The count is Redis's, not the instance's: a restarted instance goes on from it.
    expect(run("podman", ["restart", api], 60_000).ok).toBe(true);
    await until(() => ask(api, "/healthz").includes('"store":"ok"'), "the restarted instance answers");
    expect(remaining()).toBe("27");
  });
});
