/**
 * Server configuration from the environment (docs/rules.md "Runtimes and configuration"), read and
 * validated in one place for every entry point by the table of settings (`settings.ts`). A bad
 * value stops start-up with a message naming the variable.
 */
import { settingName, storeKind } from "../stores/registry.ts";
import { withoutTrailing } from "../core/util/withoutTrailing.ts";
import type { Setting } from "./settingTypes.ts";
import type { AppOptions } from "../core/appOptions.ts";
import { CONFIG_VARIABLES, OPTION_FIELDS, SETTINGS, type SettingField, allSettings, storeSetting } from "./settings.ts";

export { CONFIG_VARIABLES };

/**
 * The configuration: a field per setting of the table, typed by it, and the variables of the chosen
 * quota store as camelCase fields (`QUOTA_DB` → `quotaDb`; `optionsFrom` in the registry reads them).
 */
export type ServerConfig = { [F in SettingField]: (typeof SETTINGS)[F] extends Setting<infer T> ? T : never } & { readonly [storeSetting: string]: unknown };

/** A configuration error naming the variable. */
export class ConfigError extends Error {
  constructor(variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = "ConfigError";
  }
}

/** The value of `setting` in `env`: its default when unset or empty (undefined without one); a refused value is a `ConfigError`, which repeats the value unless secret. */
function read<T>(setting: Setting<T>, env: Record<string, string | undefined>): T | undefined {
  const given = env[setting.variable];
  const raw = given === undefined || given === "" ? setting.default : given;
  if (raw === undefined) return undefined;
  const parsed = setting.parse(raw);
  if ("value" in parsed) return parsed.value;
  throw new ConfigError(setting.variable, setting.secret ? parsed.problem : `${parsed.problem}, got ${JSON.stringify(raw)}`);
}

/**
 * Reads and validates the configuration from an environment record; `defaults.quotaDb` replaces
 * the default `QUOTA_DB` (the compiled binary keeps its database in the user's data folder).
 */
export function readConfig(env: Record<string, string | undefined>, defaults: { quotaDb?: string } = {}): ServerConfig {
  const config: Record<string, unknown> = {};
  for (const [field, setting] of Object.entries(SETTINGS)) config[field] = read(setting as Setting, env);
  if (config.hanjaBase === config.quizBase) throw new ConfigError(SETTINGS.quizBase.variable, `must differ from ${SETTINGS.hanjaBase.variable}`);
  const server = config as ServerConfig;
  // Only the chosen kind's variables are read: another kind's bad value is no reason to refuse.
  const kind = storeKind(server.quotaStore);
  const store: Record<string, unknown> = {};
  for (const variable of kind.variables) {
    const value = read(storeSetting(variable), env);
    if (value !== undefined) store[settingName(variable.name)] = value;
  }
  // The compiled binary keeps its database in the user's data folder unless QUOTA_DB says otherwise.
  if (kind.name === "sqlite" && !env.QUOTA_DB && defaults.quotaDb !== undefined) store.quotaDb = defaults.quotaDb;
  return { ...store, ...server };
}

/** The `createApp` options the settings feed (each setting's `option`), from the configuration, unset ones included. */
export function appOptionsFrom(config: ServerConfig): Partial<AppOptions> {
  return Object.fromEntries(OPTION_FIELDS.map(([field, option]) => [option, config[field]]));
}

/** A `--help` entry: the name in a column of 23 (the longest name and a space), later lines of the text under the first. */
function helpEntry(name: string, text: string): string {
  return `  ${name.padEnd(23)}${text.split("\n").join(`\n${" ".repeat(25)}`)}`;
}

/** A setting's `--help` text: its help with its default and bounds, unless it is a secret or says them itself. */
function helpText(setting: Setting): string {
  const shown = setting.default !== undefined && setting.default !== "" && !setting.secret && !/\(default\b/.test(setting.help);
  const bounds = setting.min !== undefined && setting.max !== undefined ? `, ${setting.min} to ${setting.max}` : "";
  const facts = shown ? `(default ${setting.default}${bounds})` : "";
  if (setting.help.includes("{default}")) return setting.help.replace("{default}", facts);
  return facts === "" ? setting.help : `${setting.help} ${facts}`;
}

/**
 * The configuration variables and what they do, for `--help`, from the table of settings;
 * `replace` gives some variables other text (the compiled binary's data and database).
 */
export function configHelp(replace: Readonly<Record<string, string>> = {}): string {
  const entries = allSettings().map((setting) => helpEntry(setting.variable, replace[setting.variable] ?? helpText(setting)));
  return ["Environment:", ...entries].join("\n");
}

/** The configuration variables and what they do, for `--help`. */
export const CONFIG_HELP = configHelp();

/**
 * The default `QUOTA_DB` of the compiled binary, a file copied anywhere and run from any folder:
 * the user's data folder (`$XDG_DATA_HOME/hanja-api/quota.sqlite`, else
 * `~/.local/share/hanja-api/quota.sqlite`), so that the keys sold do not depend on the folder it
 * was started from; `./.data/quota.sqlite` only when there is no home folder.
 */
export function binaryQuotaDb(env: Record<string, string | undefined>): string {
  const data = env.XDG_DATA_HOME || (env.HOME ? `${env.HOME}/.local/share` : undefined);
  return data ? `${withoutTrailing(data, "/")}/hanja-api/quota.sqlite` : "./.data/quota.sqlite";
}

/** `--help`'s list of variables for the compiled binary: its data is built in, its database in the user's data folder. */
export function binaryConfigHelp(env: Record<string, string | undefined>): string {
  return configHelp({
    QUOTA_DB: `SQLite file (default ${binaryQuotaDb(env)},\nthe same whatever folder this program runs from)`,
    DIST_DIR: "folder of other built data to serve instead of the data built\ninto this executable (default: the built-in data, no files needed)",
  });
}
