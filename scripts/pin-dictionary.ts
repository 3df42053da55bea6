/**
 * `npm run pin:dictionary`: recomputes pipeline/data/libhangul/pin.json from the pinned hanja
 * dictionary, keeping the record of where it came from. After replacing `hanja.txt` with a newer
 * published file, run it with `--package-version <v> --package-sha256 <hex>` (the Debian package's
 * version and the SHA-256 of its `.deb`), review the counts it prints, then `npm test`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pinText } from "../pipeline/pin/computePin.ts";
import { DICTIONARY_DIR, DICTIONARY_PIN_FILE, computeDictionaryPin, readDictionaryPin } from "../pipeline/pin/dictionaryPin.ts";

const { values } = parseArgs({ options: { "package-version": { type: "string" }, "package-sha256": { type: "string" } } });
const before = readDictionaryPin();
const source = {
  origin: before.origin,
  package: {
    ...before.package,
    version: values["package-version"] ?? before.package.version,
    sha256: values["package-sha256"] ?? before.package.sha256,
  },
};
const pin = computeDictionaryPin(readFileSync(join(DICTIONARY_DIR, before.file)), before.file, source);
writeFileSync(join(DICTIONARY_DIR, DICTIONARY_PIN_FILE), pinText(pin));
console.log(`pinned ${pin.file} ${pin.sha256}: ${pin.counts.entries} entries (${pin.counts.characters} characters, ${pin.counts.words} words)`);
