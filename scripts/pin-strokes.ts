/**
 * `npm run pin:strokes -- --commit <animCJK commit> --tarball <hanzi-writer-data-<version>.tgz>`:
 * writes pipeline/data/strokes/pin.json from animCJK's `graphicsKo.txt` in that folder (taken as
 * published: `git show <commit>:graphicsKo.txt > pipeline/data/strokes/animcjk-graphicsKo.txt`), the
 * tarball `npm pack hanzi-writer-data@<version>` fetches (its SHA-256; npm's integrity comes from
 * package-lock.json) and the installed package's character files (their count and a hash over
 * each one's). Review the counts it prints, then rebuild and test.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pinText } from "../pipeline/pin/computePin.ts";
import { HANZI_WRITER_DATA, STROKES_DIR, STROKES_PIN_FILE, type StrokesPin, hanziWriterData, parseAnimCjk, packageFiles } from "../pipeline/pin/strokesPin.ts";
import { sha256 } from "../pipeline/write/writeDist.ts";

const ANIMCJK_FILE = "animcjk-graphicsKo.txt";
const { values } = parseArgs({ options: { commit: { type: "string" }, tarball: { type: "string" } } });
if (values.commit === undefined || !/^[0-9a-f]{40}$/.test(values.commit) || values.tarball === undefined) {
  console.error("usage: npm run pin:strokes -- --commit <animCJK's 40-hex commit> --tarball <hanzi-writer-data-<version>.tgz>");
  process.exit(2);
}
const root = join(STROKES_DIR, "../../..");
const animcjk = readFileSync(join(STROKES_DIR, ANIMCJK_FILE));
const korean = parseAnimCjk(animcjk.toString("utf8"), ANIMCJK_FILE);
const hanzi = hanziWriterData();
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string; integrity: string }> };
const locked = lock.packages[`node_modules/${HANZI_WRITER_DATA}`];
if (locked?.version !== hanzi.version) throw new Error(`package-lock.json locks ${HANZI_WRITER_DATA} ${locked?.version}, ${hanzi.version} is installed`);
const files = packageFiles(hanzi.dir);
const pin: StrokesPin = {
  animcjk: {
    repository: "https://github.com/parsimonhi/animCJK",
    commit: values.commit,
    path: "graphicsKo.txt",
    file: ANIMCJK_FILE,
    sha256: sha256(animcjk),
    characters: korean.size,
    license: "Arphic-1999",
  },
  hanzi_writer_data: {
    package: HANZI_WRITER_DATA,
    version: hanzi.version,
    tarball_sha256: sha256(readFileSync(values.tarball)),
    integrity: locked.integrity,
    license: "Arphic-1999",
    files: { count: files.count, sha256: files.sha256 },
  },
};
writeFileSync(join(STROKES_DIR, STROKES_PIN_FILE), pinText(pin));
console.log(
  `pinned ${ANIMCJK_FILE} ${pin.animcjk.sha256} (${korean.size} characters); ${HANZI_WRITER_DATA} ${hanzi.version}: ${files.count} character files, ${files.sha256}`,
);
