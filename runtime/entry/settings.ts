/**
 * The server's settings, one entry each: its environment variable, the `createApp` option it feeds
 * (when it feeds one), type, default, bounds, whether it is a secret, and its `--help` text. Reading
 * the environment (`readConfig`), `--help`, the options the server programs pass to `createApp`,
 * the variable start-up names for a refused option and Deno's `--allow-env` list all derive from
 * this table; a test holds the README's configuration table to it. The quota store's own variables
 * (`QUOTA_DB`, `REDIS_URL`, …) are declared by their kinds in `runtime/stores/registry.ts` and
 * joined to these by `storeSettings` below.
 *
 * To add a setting: one entry here, keyed by the field the configuration carries it in. A setting
 * for `createApp` names its option with `forOption`; the option is its rule in `OPTION_RULES`
 * (`core/appOptions.ts`, where a field of `AppOptions` says what it does), and a handler reads its
 * checked value from `services.options`, with nothing to wire between. Then a row in the configuration table of
 * docs/running.md and its name in the Deno command there (the test names what is missing).
 */
import type { RuledOption } from "../core/appOptions.ts";
import { DEFAULT_STORE_KIND, STORE_KINDS, type StoreKindName, type StoreVariable, storeVariables } from "../stores/registry.ts";
import { type Setting, choice, flag, forOption, host, integer, text } from "./settingTypes.ts";

/** The settings, keyed by the configuration field that carries each, in `--help`'s order (the store's variables follow `QUOTA_STORE`). */
export const SETTINGS = {
  port: integer("PORT", { default: 8080, min: 0, max: 65535, help: "port to listen on; 0 = any free port" }),
  host: host("HOST", { default: "127.0.0.1", help: "address to bind; 0.0.0.0 for all" }),
  hanjaBase: forOption("HANJA_BASE", "hanjaBase", { help: "base path of the character API" }),
  quizBase: forOption("QUIZ_BASE", "quizBase", { help: "base path of the quiz API" }),
  mountPath: forOption("MOUNT_PATH", "mountPath", {
    example: "/lexicon",
    unset: "none",
    help: "prefix a reverse proxy strips before requests reach this server\n(e.g. /lexicon; default none): put in front of the links it writes",
  }),
  quotaStore: choice("QUOTA_STORE", {
    choices: Object.keys(STORE_KINDS) as StoreKindName[],
    default: DEFAULT_STORE_KIND,
    help: ["the quota store {default}:", ...Object.values(STORE_KINDS).map((kind) => `  ${kind.name}: ${kind.summary}`)].join("\n"),
  }),
  trustProxyHops: forOption("TRUST_PROXY_HOPS", "trustProxyHops", { help: "reverse proxies whose X-Forwarded-For is trusted" }),
  adminToken: forOption("ADMIN_TOKEN", "adminToken", { help: "enables /quiz/v1/admin/* with Authorization: Bearer <token> (16+ chars)" }),
  metricsToken: forOption("METRICS_TOKEN", "metricsToken", {
    help: "enables GET /metrics (Prometheus) with Authorization: Bearer <token>\n(16+ chars); unset, /metrics answers 404",
  }),
  bankAccount: forOption("BANK_ACCOUNT", "bankAccount", { unset: "placeholder", help: "bank account text shown in the payment instructions" }),
  quizSecret: forOption("QUIZ_SECRET", "quizSecret", {
    unset: "a random secret per process, with a warning",
    help: "encrypts the quiz_id of quizzes drawn with reveal=0, for POST /grade (16+ chars;\nnew,old while rotating; unset: a random one per process)",
  }),
  quotaTzOffset: forOption("QUOTA_TZ_OFFSET", "quotaTzOffset", { help: "UTC offset of the quota day; +09:00 is Asia/Seoul" }),
  distDir: text("DIST_DIR", { unset: "nearest `dist/`", help: "folder of the built data (default: the nearest dist/)" }),
  accessLog: flag("ACCESS_LOG", { default: true, help: "1 = one JSON line per request on stdout, 0 = off" }),
  shutdownTimeoutMs: integer("SHUTDOWN_TIMEOUT", {
    default: 8,
    min: 0,
    max: 3600,
    scale: 1000,
    help: "seconds after SIGINT/SIGTERM before connections still open are\nclosed and the server exits",
  }),
  retentionDays: forOption("RETENTION_DAYS", "retentionDays", {
    help: "days the name, e-mail, phone and depositor of an application awaiting\nits deposit, or of a revoked key, are kept",
  }),
  classResultsDays: forOption("CLASS_RESULTS_DAYS", "classResultsDays", {
    help: "days a class quiz's results (students' names and answers) are kept after it\ncloses, then erased by the retention sweep",
  }),
  classStudentsMax: forOption("CLASS_STUDENTS_MAX", "classStudentsMax", {
    help: "most students a class quiz may take (a teacher may set fewer); past it: 429",
  }),
  classQuizzesPerKey: forOption("CLASS_QUIZZES_PER_KEY", "classQuizzesPerKey", {
    help: "most class quizzes one API key keeps at once (open, or closed with results\nkept); past it: 429",
  }),
  cacheMegabytes: forOption("CACHE_MB", "cacheMegabytes", {
    help: "MB the caches hold together at most (remembered answers, pages, search\nresults, key and address lookups), each entry counted by its bytes",
  }),
};

/** A field of the configuration that a setting of the table fills. */
export type SettingField = keyof typeof SETTINGS;

/** A quota store kind's variable as a setting: its value is text its kind checks. */
export function storeSetting(variable: StoreVariable): Setting<string | undefined> {
  return {
    variable: variable.name,
    type: "text",
    default: variable.default,
    unset: variable.default === undefined ? "none" : undefined,
    secret: variable.secret === true,
    help: variable.help,
    parse: (raw) => {
      const problem = variable.check?.(raw);
      return problem === undefined ? { value: raw } : { problem };
    },
  };
}

/** The quota store kinds' variables as settings, in registry order, each once (two kinds may share one). */
export function storeSettings(): Setting<string | undefined>[] {
  const seen = new Map<string, Setting<string | undefined>>();
  for (const variable of storeVariables()) if (!seen.has(variable.name)) seen.set(variable.name, storeSetting(variable));
  return [...seen.values()];
}

/** Every setting, the store kinds' variables right after `QUOTA_STORE`: the order of `--help` and of the README's table. */
export function allSettings(): Setting[] {
  const own = Object.values(SETTINGS) as Setting[];
  const at = own.indexOf(SETTINGS.quotaStore as Setting) + 1;
  return [...own.slice(0, at), ...storeSettings(), ...own.slice(at)];
}

/** Every environment variable the server reads, every store kind's included: `--help` lists each and Deno may read each. */
export const CONFIG_VARIABLES: readonly string[] = allSettings().map((setting) => setting.variable);

/** The variable behind a `createApp` option, for start-up's message when `createApp` refuses the option. */
export function variableOf(option: string): string | undefined {
  return (Object.values(SETTINGS) as Setting[]).find((setting) => setting.option === option)?.variable;
}

/** The settings that feed `createApp`, by field: the option each sets. */
export const OPTION_FIELDS = Object.entries(SETTINGS).flatMap(([field, setting]) =>
  (setting as Setting).option === undefined ? [] : [[field as SettingField, (setting as Setting).option as RuledOption] as const],
);
