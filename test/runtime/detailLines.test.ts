import { describe, expect, it } from "vitest";
import { createApp } from "../../runtime/core/app.ts";
import { DIST_FILES, type Tables } from "../../runtime/format/dist.ts";
import { detailLines } from "../../runtime/core/data/detailLines.ts";
import type { DistFiles } from "../../runtime/core/data/load.ts";
import { distFiles, distText } from "../helpers/app.ts";

const encoder = new TextEncoder();
const lines = distText(DIST_FILES.details).trimEnd().split("\n");
const tables = JSON.parse(distText(DIST_FILES.tables)) as Tables;
const bytes = encoder.encode(distText(DIST_FILES.details));
/** The built dist/ with the details given as text and the tables as `change` leaves them. */
const withDetails = (details: string | Uint8Array, change: (t: Tables) => Tables = (t) => t): DistFiles => ({
  ...distFiles(),
  [DIST_FILES.details]: details,
  [DIST_FILES.tables]: JSON.stringify(change(tables)),
});

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

describe("details.jsonl kept as bytes", () => {
  it("gives every detail body the text and the UTF-8 bytes of its line", () => {
    const fromBytes = detailLines(bytes, tables.detailBytes);
    const fromText = detailLines(distText(DIST_FILES.details), tables.detailBytes);
    expect(fromBytes.count).toBe(lines.length);
    // One assertion over all lines (an expect per line would cost the test seconds).
    const differ = lines.filter((line, position) => {
      const encoded = encoder.encode(line);
      return [fromBytes, fromText].some((from) => from.text(position) !== line || !sameBytes(from.bytes(position), encoded));
    });
    expect(differ).toEqual([]);
  });

  it("answers every character's detail with the same bytes whether the host passes the details as text or as bytes", async () => {
    const fromBytes = createApp({ dist: withDetails(bytes) });
    const fromText = createApp({ dist: withDetails(distText(DIST_FILES.details)) });
    const differ: string[] = [];
    for (const character of tables.characters) {
      const request = { method: "GET", url: `http://localhost/hanja/v1/hanja/${encodeURIComponent(character)}`, headers: new Headers() };
      const [a, b] = await Promise.all([fromBytes.handle(request), fromText.handle(request)]);
      if (a.status !== 200 || !(a.body instanceof Uint8Array && b.body instanceof Uint8Array && sameBytes(a.body, b.body))) differ.push(character);
    }
    expect(differ).toEqual([]);
  });

  it("refuses details whose size does not match the line lengths the tables list, naming both files", () => {
    expect(() => createApp({ dist: withDetails(bytes.subarray(0, bytes.length - 1)) })).toThrow(/details\.jsonl has .* bytes and tables\.json .*do not match/);
    expect(() => createApp({ dist: withDetails(bytes, (t) => ({ ...t, detailBytes: t.detailBytes.slice(1) })) })).toThrow(
      /tables\.json lists 8\d{3} detail lengths for 8\d{3} characters/,
    );
    const { detailBytes: _older, ...olderFormat } = tables;
    expect(() => createApp({ dist: withDetails(bytes, () => olderFormat as Tables) })).toThrow(/tables\.json lists no detail lengths/);
  });

  it("fails a request for a line that is not where the tables put it, or not UTF-8, with the file and the line", async () => {
    // Two lengths swapped: the total is right, the line boundaries are not.
    const swapped = (t: Tables) => ({ ...t, detailBytes: [t.detailBytes[1] as number, t.detailBytes[0] as number, ...t.detailBytes.slice(2)] });
    const errors: string[] = [];
    const onError = (error: unknown) => errors.push(String(error));
    const shifted = createApp({ dist: withDetails(bytes, swapped), onError });
    const first = encodeURIComponent(tables.characters[0] as string);
    expect((await shifted.fetch(new Request(`http://localhost/hanja/v1/hanja/${first}`))).status).toBe(500);
    expect(errors.pop()).toMatch(/details\.jsonl line 1 does not end where tables\.json says/);

    const broken = bytes.slice();
    broken[(tables.detailBytes[0] as number) + 3] = 0xff; // inside line 2
    const invalid = createApp({ dist: withDetails(broken), onError });
    const second = encodeURIComponent(tables.characters[1] as string);
    expect((await invalid.fetch(new Request(`http://localhost/hanja/v1/hanja/${second}`))).status).toBe(500);
    expect(errors.pop()).toMatch(/details\.jsonl line 2 is not valid UTF-8/);
    expect((await invalid.fetch(new Request(`http://localhost/hanja/v1/hanja/${first}`))).status).toBe(200);
  });

  it("reads any other file given as bytes, and names one that is not UTF-8", async () => {
    const asBytes = Object.fromEntries(Object.entries(distFiles()).map(([name, file]) => [name, typeof file === "string" ? encoder.encode(file) : file]));
    const app = createApp({ dist: asBytes });
    expect((await app.fetch(new Request("http://localhost/hanja/v1/hanja?q=water"))).status).toBe(200);
    expect((await app.fetch(new Request("http://localhost/hanja/v1/meta"))).status).toBe(200);
    expect(() => createApp({ dist: { ...asBytes, [DIST_FILES.tables]: Uint8Array.of(0x7b, 0xff, 0x7d) } })).toThrow(/tables\.json is not valid UTF-8/);
  });
});
