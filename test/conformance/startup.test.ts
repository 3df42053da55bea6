/**
 * Start-up of the source entry on Node, Bun and Deno (docs/rules.md "Runtimes and configuration"): `--help` lists every variable and
 * exits 0 without serving; a bad variable stops start-up with exit status 2 and a message naming
 * it; `MOUNT_PATH` reaches the app.
 */
import { type AddressInfo, createServer } from "node:net";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../../runtime/entry/config.ts";
import { detectDriver } from "../../runtime/stores/sqlite/driver.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { bundle } from "../../scripts/bundle.ts";
import { ROOT } from "../helpers/app.ts";
import { unprivileged } from "../helpers/unprivileged.ts";
import { type Exited, type StartServer, bunSource, denoSource, environment, nodeSource, runToExit, sourceCommand } from "./servers.ts";

const dir = mkdtempSync(join(tmpdir(), "hanja-startup-"));
writeFileSync(join(dir, "a-file"), "not a folder\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each runtime's command from source, for the environment `run` gives every case (its QUOTA_DB). */
const commandOn = (runtime: "node" | "bun" | "deno") => sourceCommand(runtime, environment({ QUOTA_DB: join(dir, "quota.sqlite") }));
const NODE = commandOn("node");

const RUNTIMES: { name: string; command: string; args: string[]; start: StartServer }[] = [
  { name: "Node", ...NODE, start: nodeSource },
  { name: "Bun", ...commandOn("bun"), start: bunSource },
  { name: "Deno", ...commandOn("deno"), start: denoSource },
];

/** Runs the entry to its exit (it must not start serving) and returns its exit code and output; `user`: another uid and gid. */
function run(command: string, args: readonly string[], env: Record<string, string>, cwd = ROOT, user: { uid?: number; gid?: number } = {}): Promise<Exited> {
  return runToExit(command, args, environment({ QUOTA_DB: join(dir, "quota.sqlite"), ...env }), cwd, user);
}

describe.each(RUNTIMES)("start-up on $name", ({ command, args, start }) => {
  it("--help prints the usage with every variable and exits 0 without serving", async () => {
    const result = await run(command, [...args, "--help"], {});
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Usage:");
    for (const name of CONFIG_VARIABLES) expect(result.stdout, name).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(result.stderr).not.toContain("listening");
  });

  it("an argument stops start-up with exit status 2 pointing to the environment, rather than being ignored", async () => {
    const result = await run(command, [...args, "--port", "3000"], { QUOTA_STORE: "memory" });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      'hanja-api: unexpected argument "--port": the server takes its settings from the environment (PORT=3000, HOST=…); --help lists them\n',
    );
  });

  it("--licenses, the compiled binary's, stops start-up with exit status 2 saying where the licences are", async () => {
    const result = await run(command, [...args, "--licenses"], { QUOTA_STORE: "memory" });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toBe(
      'hanja-api: --licenses is the compiled binary\'s; here the licences are files of the checkout (README.md "Licences", docs/data.md)\n',
    );
    expect(result.stdout).toBe("");
  });

  it.each([
    ["PORT", "abc"],
    ["QUOTA_STORE", "mongodb"],
    ["MOUNT_PATH", "lexicon"],
  ])("%s=%s stops start-up with exit status 2, naming the variable and the value", async (name, value) => {
    const result = await run(command, args, { [name]: value });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`hanja-api: invalid configuration: ${name}: `);
    expect(result.stderr).toContain(JSON.stringify(value));
    expect(result.stderr).not.toContain("listening");
  });

  it("a PORT in use or a HOST that is no address here stops start-up with exit status 2 naming them, without a stack", async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    const port = (taken.address() as AddressInfo).port;
    try {
      const inUse = await run(command, args, { PORT: String(port), QUOTA_STORE: "memory" });
      expect(inUse.code, inUse.stderr).toBe(2);
      expect(inUse.stderr.trim()).toBe(`hanja-api: cannot listen on 127.0.0.1:${port} (HOST, PORT): the port is in use`);
    } finally {
      taken.close();
    }
    // 192.0.2.1 is a documentation address, never this machine's. Deno, allowed 127.0.0.1 only
    // (start:deno's permissions for HOST=127.0.0.1, used for every case here), says it may not listen there.
    for (const host of ["not-an-ip", "192.0.2.1"]) {
      const badHost = await run(command, args, { HOST: host, QUOTA_STORE: "memory" });
      expect(badHost.code, badHost.stderr).toBe(2);
      expect(badHost.stderr).toMatch(
        new RegExp(`^hanja-api: cannot listen on ${host.replace(/\./g, "\\.")}:0 \\(HOST, PORT\\): (HOST is not an address|Requires net access)`),
      );
      expect(badHost.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("a HANJA_BASE inside interface B's routes stops start-up naming HANJA_BASE, even with DIST_DIR set", async () => {
    const result = await run(command, args, { HANJA_BASE: "/quiz/v1/idiom", DIST_DIR: join(ROOT, "dist"), QUOTA_STORE: "memory" });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(
      'hanja-api: invalid configuration: HANJA_BASE: "/quiz/v1/idiom" lies inside interface B\'s route /quiz/v1/idiom/:idx, which would answer /quiz/v1/idiom/hanja; choose bases that do not nest this way',
    );
  });

  it("a DIST_DIR without the data, or a QUOTA_DB that cannot be opened, stops start-up with exit status 2 naming it", async () => {
    const noData = await run(command, args, { DIST_DIR: join(dir, "no-such-dist") });
    expect(noData.code, noData.stderr).toBe(2);
    expect(noData.stderr).toContain("hanja-api: invalid configuration: DIST_DIR: ");
    expect(noData.stderr).toContain("no-such-dist");
    const underAFile = join(dir, "a-file", "quota.sqlite");
    const badDb = await run(command, args, { QUOTA_DB: underAFile });
    expect(badDb.code, badDb.stderr).toBe(2);
    expect(badDb.stderr).toContain(`hanja-api: invalid configuration: QUOTA_DB: cannot open ${underAFile}: `);
    const aFolder = join(dir, "a-folder");
    mkdirSync(aFolder, { recursive: true });
    const folderDb = await run(command, args, { QUOTA_DB: aFolder });
    expect(folderDb.code, folderDb.stderr).toBe(2);
    expect(folderDb.stderr).toContain(`hanja-api: invalid configuration: QUOTA_DB: cannot open ${aFolder}: `);
    expect(folderDb.stderr).toContain("(it is a folder; QUOTA_DB names the database file)");
    expect(folderDb.stderr).not.toContain("not writable");
    for (const result of [noData, badDb, folderDb]) expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("warns at start-up, after listening, when BANK_ACCOUNT or QUIZ_SECRET is not set, and not when they are", async () => {
    const unset = await start({ QUOTA_DB: join(dir, "bank-unset.sqlite") });
    const set = await start({
      QUOTA_DB: join(dir, "bank-set.sqlite"),
      BANK_ACCOUNT: "국민은행 123-456 (예금주: 한자API)",
      QUIZ_SECRET: "startup-test-secret-0123456789",
    });
    try {
      // Written just after the listening line, which may reach us first.
      const warnings = () =>
        unset
          .stderr()
          .split("\n")
          .filter((line) => line.includes('"level":"warn"'))
          .map((line) => JSON.parse(line) as { level: string; msg: string });
      for (let i = 0; i < 100 && warnings().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(warnings()[0]).toEqual({
        level: "warn",
        msg: "BANK_ACCOUNT is not set: POST /subscribe answers with payment instructions that name no account",
      });
      expect(warnings()[1]?.msg).toMatch(/^QUIZ_SECRET is not set: quizzes drawn with reveal=0 are signed with a secret of this process/);
      expect(set.stderr()).not.toContain("BANK_ACCOUNT");
      expect(set.stderr()).not.toContain("startup-test-secret");
      expect(set.stderr()).not.toContain('"level":"warn"');
    } finally {
      await Promise.all([unset.stop(), set.stop()]);
    }
  });

  it("MOUNT_PATH puts the proxy's prefix in the links the service writes", async () => {
    const server = await start({ QUOTA_DB: join(dir, "mount.sqlite"), MOUNT_PATH: "/lexicon" });
    try {
      const response = await fetch(`${server.url}/nope`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { type: string }).type).toBe("/lexicon/docs#error-not_found");
      const meta = (await (await fetch(`${server.url}/hanja/v1/meta`)).json()) as { licenses: { idioms: { url: string } } };
      expect(meta.licenses.idioms.url).toBe("/lexicon/hanja/v1/terms");
    } finally {
      await server.stop();
    }
  });
});

describe("the bundle on a Node without a SQLite driver", () => {
  // Node before 22.13 has no node:sqlite; the bundle leaves better-sqlite3 external, so a bundle
  // copied where that package is not installed cannot open the default store.
  it.runIf(detectDriver() === "better-sqlite3")("stops with exit status 2 saying what to install or set, and creates no folder", async () => {
    const away = mkdtempSync(join(tmpdir(), "hanja-no-driver-"));
    try {
      const file = await bundle(join(away, "hanja-api.mjs"));
      const result = await run(process.execPath, [file], { DIST_DIR: join(ROOT, "dist"), QUOTA_DB: "./.data/quota.sqlite" }, away);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain("hanja-api: invalid configuration: QUOTA_DB: cannot open ./.data/quota.sqlite: ");
      expect(result.stderr).toContain("needs the better-sqlite3 package where the server runs: npm install better-sqlite3@12, or set QUOTA_STORE=memory");
      expect(result.stderr).not.toContain("listening");
      expect(existsSync(join(away, ".data"))).toBe(false);
      expect(readdirSync(away)).toEqual(["hanja-api.mjs"]);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });
});

describe("a quota database in a folder this process may not write", () => {
  // SQLite's own message, "unable to open database file", does not say why. Root may write any
  // folder, so the server runs without the powers that bypass file permissions (`unprivileged`).
  it("stops start-up with exit status 2 naming QUOTA_DB and the folder", async () => {
    const away = mkdtempSync(join(tmpdir(), "hanja-nowrite-"));
    try {
      chmodSync(away, 0o555);
      const path = join(away, "quota.sqlite");
      const { command, args } = unprivileged(NODE.command, NODE.args);
      const result = await run(command, args, { QUOTA_DB: path });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toMatch(
        new RegExp(`^hanja-api: invalid configuration: QUOTA_DB: cannot open ${path}: .+ \\(the folder ${away} is not writable by this process\\)$`),
      );
    } finally {
      chmodSync(away, 0o755);
      rmSync(away, { recursive: true, force: true });
    }
  });
});

describe("a quota database that can be read but not written", () => {
  // SQLite opens a read-only file read-only without saying so; every metered call then failed
  // with a 500. Root may write any file, so the server runs without the powers that bypass file
  // permissions (`unprivileged`).
  it("stops start-up with exit status 2 naming QUOTA_DB, instead of failing every metered call", async () => {
    const away = mkdtempSync(join(tmpdir(), "hanja-readonly-"));
    try {
      chmodSync(away, 0o777);
      const path = join(away, "quota.sqlite");
      (await openSqliteStore(path)).close(); // an existing quota database, in WAL mode
      chmodSync(path, 0o444);
      const { command, args } = unprivileged(NODE.command, NODE.args);
      const result = await run(command, args, { QUOTA_DB: path });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(
        `hanja-api: invalid configuration: QUOTA_DB: cannot open ${path}: quota store: cannot write ${path}: attempt to write a readonly database`,
      );
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });
});
