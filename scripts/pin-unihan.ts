/**
 * `npm run pin`: recomputes pipeline/data/unihan/pin.json from the pinned zip.
 * `npm run pin -- --zip <path> [--origin <url>]`: makes that zip the pinned release (the release
 * job does this through scripts/unihan-release.ts).
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { movePin, repin } from "../pipeline/pin/movePin.ts";

const { values } = parseArgs({ options: { zip: { type: "string" }, origin: { type: "string" } } });
const pin = values.zip ? (await movePin(await readFile(values.zip), values.origin ?? basename(values.zip))).after : await repin();
console.log(`pinned Unihan ${pin.version}: ${pin.file} ${pin.sha256}, ${pin.counts.characters} characters`);
