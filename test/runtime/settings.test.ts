/**
 * The table of settings (runtime/entry/settings.ts) and what derives from it: one set of bounds for
 * a variable and the `createApp` option behind it, the options the server passes on, the variable
 * start-up names for a refused option, `--help`'s defaults, and the configuration table of docs/running.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppOptionError, OPTION_RULES, type RuledOption, ruledOptions } from "../../runtime/core/appOptions.ts";
import { CONFIG_HELP, ConfigError, appOptionsFrom, readConfig } from "../../runtime/entry/config.ts";
import type { Setting } from "../../runtime/entry/settingTypes.ts";
import { SETTINGS, allSettings, variableOf } from "../../runtime/entry/settings.ts";
import { ROOT, testApp } from "../helpers/app.ts";

/** What `run` throws, or undefined. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const bounded = (Object.values(SETTINGS) as Setting[]).filter((setting) => setting.option !== undefined && setting.max !== undefined);

/** The options whose rule is a bounded whole number, from the rules: a new one is covered without a list to extend. */
type IntegerOption = { [K in RuledOption]: (typeof OPTION_RULES)[K]["type"] extends "integer" ? K : never }[RuledOption];
const INTEGER_OPTIONS = (Object.keys(OPTION_RULES) as RuledOption[]).filter((option) => OPTION_RULES[option].type === "integer").sort();

describe("one set of bounds for a variable and its createApp option", () => {
  it("covers the bounded options", () => {
    expect(bounded.map((setting) => setting.option).sort()).toEqual(INTEGER_OPTIONS);
    expect(INTEGER_OPTIONS).toEqual(expect.arrayContaining(["cacheMegabytes", "retentionDays", "trustProxyHops"]));
  });

  it.each(bounded.map((setting) => [setting.variable, setting] as const))("%s and its option take the bounds and refuse one past each", (variable, setting) => {
    const option = setting.option as IntegerOption;
    const { min, max } = OPTION_RULES[option];
    expect([setting.min, setting.max]).toEqual([min, max]);
    for (const ok of [min, max]) {
      expect(readConfig({ [variable]: String(ok) })[option]).toBe(ok);
      expect(() => testApp({ [option]: ok }), `${option}: ${ok}`).not.toThrow();
    }
    for (const bad of [min - 1, max + 1]) {
      const fromEnv = thrown(() => readConfig({ [variable]: String(bad) }));
      expect(fromEnv).toBeInstanceOf(ConfigError);
      expect((fromEnv as Error).message).toBe(`${variable}: must be a whole number from ${min} to ${max}, got ${JSON.stringify(String(bad))}`);
      const fromOption = thrown(() => testApp({ [option]: bad }));
      expect(fromOption, `${option}: ${bad}`).toBeInstanceOf(AppOptionError);
      expect(fromOption).toMatchObject({ option, message: expect.stringMatching(new RegExp(`^${option}: ${bad} `)) });
    }
  });

  it("createApp caps trustProxyHops at 10, as TRUST_PROXY_HOPS is, and names the bound", () => {
    expect(thrown(() => testApp({ trustProxyHops: 11 }))).toMatchObject({ option: "trustProxyHops", detail: "11 is more than 10, the most it may be" });
    expect(thrown(() => testApp({ trustProxyHops: 1.5 }))).toMatchObject({ option: "trustProxyHops", detail: "1.5 is not a whole number ≥ 0" });
    expect(thrown(() => readConfig({ TRUST_PROXY_HOPS: "11" }))).toMatchObject({ message: 'TRUST_PROXY_HOPS: must be a whole number from 0 to 10, got "11"' });
  });
});

describe("the server's createApp options", () => {
  it("carry every setting with an option, set or unset, and start-up names the variable behind each", () => {
    const config = readConfig({ HANJA_BASE: "/h", TRUST_PROXY_HOPS: "3", RETENTION_DAYS: "7", BANK_ACCOUNT: "Bank 1-2-3", ADMIN_TOKEN: "0123456789abcdef" });
    const set = { hanjaBase: "/h", trustProxyHops: 3, retentionDays: 7, bankAccount: "Bank 1-2-3", adminToken: "0123456789abcdef" };
    // Every option with a rule, its default where the environment leaves it unset (derived: a new setting needs no line here).
    expect(appOptionsFrom(config)).toEqual({ ...ruledOptions({}), ...set });
    expect(appOptionsFrom(config)).toMatchObject({
      hanjaBase: "/h",
      quizBase: "/quiz/v1",
      mountPath: "",
      quotaTzOffset: "+09:00",
      trustProxyHops: 3,
      adminToken: "0123456789abcdef",
      bankAccount: "Bank 1-2-3",
      retentionDays: 7,
      cacheMegabytes: 32,
    });
    for (const option of Object.keys(OPTION_RULES)) expect(variableOf(option), option).toMatch(/^[A-Z_]+$/);
    expect(variableOf("trustProxyHops")).toBe("TRUST_PROXY_HOPS");
    expect(variableOf("dist")).toBeUndefined();
  });
});

describe("--help", () => {
  it("states the default of every setting that has one and is no secret", () => {
    for (const setting of allSettings()) {
      const entry = new RegExp(`^  ${setting.variable} [^]*?(?=\\n  [A-Z]|$)`).exec(CONFIG_HELP.slice(CONFIG_HELP.indexOf(`  ${setting.variable} `)))?.[0];
      expect(entry, setting.variable).toBeDefined();
      if (setting.default !== undefined && setting.default !== "" && !setting.secret) expect(entry, setting.variable).toContain(`default ${setting.default}`);
    }
  });
});

/** The configuration table of docs/running.md: variable → [default column, meaning column]. */
function readmeRows(): Map<string, [string, string]> {
  const readme = readFileSync(join(ROOT, "docs/running.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Configuration"), readme.indexOf("\n## ", readme.indexOf("### Configuration")));
  const rows = new Map<string, [string, string]>();
  for (const line of section.split("\n")) {
    const cells = /^\| `([A-Z_]+)` \| (.*?) \| (.*) \|$/.exec(line);
    if (cells) rows.set(cells[1] as string, [cells[2] as string, cells[3] as string]);
  }
  return rows;
}

describe("the configuration table of docs/running.md", () => {
  const rows = readmeRows();

  it("has one row for each setting, no more", () => {
    const variables = allSettings().map((setting) => setting.variable);
    expect(
      [...rows.keys()].filter((name) => !variables.includes(name)),
      "rows for no setting",
    ).toEqual([]);
    expect(
      variables.filter((name) => !rows.has(name)),
      "settings without a row",
    ).toEqual([]);
  });

  it.each(allSettings().map((setting) => [setting.variable, setting] as const))(
    "%s: its default, bounds and secrecy as the table states them",
    (variable, setting) => {
      const [defaultCell, meaning] = rows.get(variable) ?? ["", ""];
      const stated = setting.default !== undefined && setting.default !== "" ? `\`${setting.default}\`` : (setting.unset ?? "none");
      expect(defaultCell.startsWith(stated), `${variable}: default column ${JSON.stringify(defaultCell)} should begin with ${stated}`).toBe(true);
      if (setting.max !== undefined) expect(meaning, variable).toContain(`\`${setting.min}\` to \`${setting.max}\``);
      if (setting.secret) expect(meaning, variable).toContain("a secret");
    },
  );

  it("is read: a row missing, a wrong default or wrong bounds would be seen", () => {
    expect(rows.get("PORT")).toEqual(["`8080`", "port, `0` to `65535` (`0`: any free port)"]);
    expect(rows.size).toBe(allSettings().length);
  });
});
