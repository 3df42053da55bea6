/**
 * Configuration (docs/rules.md "Runtimes and configuration"): the environment read and validated in one place, every bad value named
 * by its variable; and the `mountPath` option, which puts a host's prefix into the links the
 * service writes and nowhere else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_HELP, CONFIG_VARIABLES, ConfigError, readConfig } from "../../runtime/entry/config.ts";
import type { Setting } from "../../runtime/entry/settingTypes.ts";
import { SETTINGS, allSettings } from "../../runtime/entry/settings.ts";
import { denoPermissions } from "../../scripts/start-deno.ts";
import { ROOT, call, getJson, testApp } from "../helpers/app.ts";

describe("readConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const config = readConfig({}) as unknown as Record<string, unknown>;
    // Every setting of the table with a default reads as that default (derived: a new setting needs no line here).
    for (const [field, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
      const parsed = setting.default === undefined ? { value: undefined } : setting.parse(setting.default);
      expect(config[field], field).toEqual("value" in parsed ? parsed.value : parsed);
    }
    expect(readConfig({})).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      hanjaBase: "/hanja/v1",
      quizBase: "/quiz/v1",
      mountPath: "",
      quotaStore: "sqlite",
      quotaDb: "./.data/quota.sqlite",
      trustProxyHops: 0,
      adminToken: undefined,
      bankAccount: undefined,
      quotaTzOffset: "+09:00",
      distDir: undefined,
      accessLog: true,
      shutdownTimeoutMs: 8_000,
      retentionDays: 30,
      cacheMegabytes: 32,
    });
  });

  it("reads every variable; an empty value is the default; trailing slashes of paths are dropped", () => {
    const config = readConfig({
      PORT: "0",
      HOST: "0.0.0.0",
      HANJA_BASE: "/h/",
      QUIZ_BASE: "/q",
      MOUNT_PATH: "/lexicon/",
      QUOTA_STORE: "memory",
      QUOTA_DB: "/var/lib/q.sqlite",
      TRUST_PROXY_HOPS: "2",
      ADMIN_TOKEN: "0123456789abcdef",
      METRICS_TOKEN: "fedcba9876543210",
      BANK_ACCOUNT: "Bank 1-2-3",
      QUIZ_SECRET: "new-secret-0123456789, old-secret-0123456789",
      QUOTA_TZ_OFFSET: "-05:30",
      DIST_DIR: "/srv/dist",
      ACCESS_LOG: "0",
      SHUTDOWN_TIMEOUT: "30",
      RETENTION_DAYS: "90",
    });
    expect(config).toMatchObject({
      port: 0,
      host: "0.0.0.0",
      hanjaBase: "/h",
      quizBase: "/q",
      mountPath: "/lexicon",
      quotaStore: "memory",
      trustProxyHops: 2,
      quizSecret: "new-secret-0123456789, old-secret-0123456789",
      metricsToken: "fedcba9876543210",
      accessLog: false,
      shutdownTimeoutMs: 30_000,
      retentionDays: 90,
    });
    expect(readConfig({ PORT: "", MOUNT_PATH: "", QUOTA_STORE: "" })).toMatchObject({ port: 8080, mountPath: "", quotaStore: "sqlite" });
  });

  it.each([
    ["RETENTION_DAYS", "0"],
    ["RETENTION_DAYS", "3651"],
    ["RETENTION_DAYS", "30d"],
    ["PORT", "abc"],
    ["PORT", "65536"],
    ["PORT", "-1"],
    ["HOST", "local host"],
    ["HANJA_BASE", "hanja"],
    ["QUIZ_BASE", "/quiz v1"],
    ["MOUNT_PATH", "lexicon"],
    ["MOUNT_PATH", "/lexicon?x=1"],
    ["MOUNT_PATH", "/"],
    ["QUOTA_STORE", "mongodb"],
    ["TRUST_PROXY_HOPS", "1.5"],
    ["TRUST_PROXY_HOPS", "11"],
    ["ADMIN_TOKEN", "short"],
    ["ADMIN_TOKEN", "      abcdefghij"],
    ["QUIZ_SECRET", "short"],
    ["QUIZ_SECRET", "0123456789abcdef,short"],
    ["METRICS_TOKEN", "short-token"],
    ["QUOTA_TZ_OFFSET", "KST"],
    ["ACCESS_LOG", "yes"],
    ["SHUTDOWN_TIMEOUT", "2.5"],
    ["SHUTDOWN_TIMEOUT", "3601"],
    ["SHUTDOWN_TIMEOUT", "10s"],
  ])("%s=%j is refused with a message naming the variable and the value", (name, value) => {
    let error: unknown;
    try {
      readConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.startsWith(`${name}: `)).toBe(true);
    // A secret's value is never repeated.
    if (name.endsWith("_TOKEN") || name === "QUIZ_SECRET") expect((error as Error).message).not.toContain(value.trim());
    else expect((error as Error).message).toContain(JSON.stringify(value));
  });

  it("refuses the two interfaces on one base path", () => {
    expect(() => readConfig({ HANJA_BASE: "/v1", QUIZ_BASE: "/v1/" })).toThrow(/^QUIZ_BASE: must differ from HANJA_BASE/);
  });

  it("--help, docs/running.md's Deno command and start:deno name every variable the server reads", () => {
    const readme = readFileSync(join(ROOT, "docs/running.md"), "utf8");
    const allowEnv = (text: string) => /--allow-env=([A-Z_,]+)/.exec(text)?.[1]?.split(",").sort();
    expect(allowEnv(denoPermissions({}).join(" "))).toEqual([...CONFIG_VARIABLES].sort());
    expect(allowEnv(readme)).toEqual([...CONFIG_VARIABLES].sort());
    for (const name of CONFIG_VARIABLES) {
      expect(CONFIG_HELP, name).toMatch(new RegExp(`^  ${name} `, "m"));
      expect(readme, name).toContain(`| \`${name}\` |`);
    }
  });
});

describe("the documented bounds", () => {
  it("--help and docs/running.md state the largest value of every bounded whole-number variable", () => {
    const readme = readFileSync(join(ROOT, "docs/running.md"), "utf8");
    const bounded: string[] = [];
    for (const name of CONFIG_VARIABLES) {
      let message = "";
      try {
        readConfig({ [name]: "99999999" });
      } catch (error) {
        message = (error as Error).message;
      }
      const max = /must be a whole number from \d+ to (\d+)/.exec(message)?.[1];
      if (max === undefined) continue;
      bounded.push(name);
      const help = new RegExp(`^  ${name} [^]*?(?=\\n  [A-Z]|$)`).exec(CONFIG_HELP.slice(CONFIG_HELP.indexOf(`  ${name} `)))?.[0];
      expect(help, `--help for ${name}`).toMatch(new RegExp(`\\b${max}\\b`));
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, `docs/running.md row for ${name}`).toMatch(new RegExp(`\\b${max}\\b`));
    }
    // Every whole-number setting of the table, derived (a new one is checked without a list to extend).
    const integers = allSettings().filter((setting) => setting.type === "integer");
    expect(bounded.sort()).toEqual(integers.map((setting) => setting.variable).sort());
    expect(bounded).toEqual(expect.arrayContaining(["CACHE_MB", "PORT", "RETENTION_DAYS", "SHUTDOWN_TIMEOUT", "TRUST_PROXY_HOPS"]));
  });
});

describe("createApp mountPath", () => {
  const MOUNT = "/lexicon";
  const app = testApp({ mountPath: `${MOUNT}/` });
  const root = testApp();

  it("puts the mount path in a problem's type and the 404's pointer to the reference", async () => {
    const mounted = await getJson(app, "/nope");
    expect(mounted.status).toBe(404);
    expect(mounted.body.type).toBe(`${MOUNT}/docs#error-not_found`);
    expect(mounted.body.detail).toContain(`${MOUNT}/docs`);
    const invalid = await getJson(app, "/hanja/v1/hanja?strokes=abc");
    expect(invalid.body).toMatchObject({ type: `${MOUNT}/docs#error-invalid_parameter`, param: "strokes" });
    expect((await getJson(root, "/nope")).body.type).toBe("/docs#error-not_found");
  });

  it("puts it in the OpenAPI servers entry, the reference page's link and the terms URL of /meta", async () => {
    const openapi = (await getJson(app, "/openapi.json")).body as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(openapi.servers).toEqual([expect.objectContaining({ url: MOUNT })]);
    expect(Object.keys(openapi.paths)).toContain("/hanja/v1/meta");
    expect((await getJson(root, "/openapi.json")).body.servers).toEqual([expect.objectContaining({ url: "/" })]);
    const docs = await (await call(app, "/docs")).text();
    expect(docs).toContain(`href="${MOUNT}/openapi.json"`);
    expect(await (await call(root, "/docs")).text()).toContain('href="/openapi.json"');
    expect((await getJson(app, "/hanja/v1/meta")).body.licenses.idioms.url).toBe(`${MOUNT}/hanja/v1/terms`);
    expect((await getJson(root, "/hanja/v1/meta")).body.licenses.idioms.url).toBe("/hanja/v1/terms");
  });

  it("leaves routing and every other body alone", async () => {
    for (const path of ["/hanja/v1/hanja/%E6%B0%B4", "/hanja/v1/hanja?q=%EC%88%98", "/hanja/v1/idioms?q=%E3%84%B1%E3%84%B1"]) {
      const [a, b] = [await call(app, path), await call(root, path)];
      expect(a.status, path).toBe(200);
      expect(await a.text(), path).toBe(await b.text());
    }
    expect((await call(app, `${MOUNT}/hanja/v1/meta`)).status).toBe(404);
  });

  it("is refused at creation when it is not a path", () => {
    for (const bad of ["lexicon", "/a b", "/x?y"]) expect(() => testApp({ mountPath: bad }), bad).toThrow(/^mountPath: /);
  });
});
