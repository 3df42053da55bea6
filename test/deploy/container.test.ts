/**
 * The container recipe (Containerfile, compose.yaml, deploy/Caddyfile) checked without building
 * it (a build takes minutes and a registry or a base image): the compose file by dclint (the
 * Compose specification's schema and its best-practice rules), the rest against the facts they
 * must agree with (the binary's path, the variables, the service names).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { DCLinter } from "dclint";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BINARY } from "../../scripts/build-binary.ts";

const ROOT = join(import.meta.dirname, "../..");
const read = (name: string) => readFileSync(join(ROOT, name), "utf8");

/** The instructions of a Containerfile's stages: continued lines joined, comments dropped. */
function stages(text: string): { instruction: string; args: string }[][] {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const result: { instruction: string; args: string }[][] = [];
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"))) {
    const [, instruction = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (instruction.toUpperCase() === "FROM") result.push([]);
    result.at(-1)?.push({ instruction: instruction.toUpperCase(), args });
  }
  return result;
}

describe("container recipe", () => {
  const [build, runtime] = stages(read("Containerfile"));
  const last = (instruction: string) => runtime?.filter((i) => i.instruction === instruction).at(-1)?.args ?? "";

  it("builds the binary in one stage and runs it alone in a second, as a non-root user, with the database on a volume", () => {
    expect(build?.[0]?.args).toMatch(/ AS build$/);
    expect(build?.some((i) => i.instruction === "RUN" && i.args === "npm run build:binary")).toBe(true);
    const binary = relative(ROOT, BINARY);
    expect(runtime?.some((i) => i.instruction === "COPY" && i.args === `--from=build /src/${binary} /usr/local/bin/hanja-api`)).toBe(true);
    expect(last("ENTRYPOINT")).toBe('["/usr/local/bin/hanja-api"]');
    expect(last("USER")).toBe("hanja");
    const env = last("ENV");
    const quotaDb = /QUOTA_DB=(\S+)/.exec(env)?.[1] ?? "";
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    expect(last("VOLUME")).toBe(`["${dirname(quotaDb)}"]`);
    expect(runtime?.some((i) => i.instruction === "RUN" && i.args.includes(`install -d -o hanja -g hanja -m 0700 ${dirname(quotaDb)}`))).toBe(true);
  });

  it("checks /healthz on the configured port and stops with SIGTERM, which the server drains on", () => {
    const port = /PORT=(\d+)/.exec(last("ENV"))?.[1];
    expect(last("EXPOSE")).toBe(port);
    expect(last("HEALTHCHECK")).toMatch(/CMD \["bash", "-c", ".*\/dev\/tcp\/127\.0\.0\.1\/\$\{PORT:-8080\}.*GET \/healthz HTTP\/1\.1.*' 200 '/);
    expect(last("STOPSIGNAL")).toBe("SIGTERM");
  });

  it("keeps the build context small: both ignore files leave out the modules, the built output and the history", () => {
    expect(read(".dockerignore")).toBe(read(".containerignore"));
    for (const entry of ["node_modules", "dist", ".data", ".git"]) expect(read(".containerignore").split("\n")).toContain(entry);
  });

  it("compose.yaml passes dclint's schema and rules", () => {
    const results = new DCLinter({ rules: {}, quiet: false, debug: false, exclude: [] }).lintFiles([join(ROOT, "compose.yaml")], false);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });

  it("runs two instances on one Redis behind the proxy, which is the one trusted hop and the only published port", () => {
    const compose = parse(read("compose.yaml"), { merge: true });
    const { api1, api2, proxy, redis } = compose.services;
    expect(api1).toEqual(api2);
    expect(api1.build.dockerfile).toBe("Containerfile");
    expect(api1.environment).toMatchObject({ QUOTA_STORE: "redis", REDIS_URL: "redis://redis:6379/0", TRUST_PROXY_HOPS: "1" });
    // Without a value, compose passes the operator's own: never a default written here.
    expect(api1.environment.ADMIN_TOKEN).toBeNull();
    expect(redis.command.join(" ")).toContain("--appendonly yes");
    expect(redis.ports).toBeUndefined();
    expect(api1.ports).toBeUndefined();
    expect(proxy.ports).toEqual(["127.0.0.1:8080:80"]);
    expect(proxy.volumes).toEqual(["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]);
    const caddyfile = read("deploy/Caddyfile");
    const port = /PORT=(\d+)/.exec(last("ENV"))?.[1];
    expect(/^\s*reverse_proxy (.+) \{$/m.exec(caddyfile)?.[1]).toBe(`api1:${port} api2:${port}`);
    // Set, not appended to: what a client sends in X-Forwarded-For cannot choose its demo quota.
    expect(caddyfile).toMatch(/^\s*header_up X-Forwarded-For \{remote_host\}$/m);
  });
});
