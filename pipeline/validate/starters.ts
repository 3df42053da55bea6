import type { HanjaRecord } from "../../runtime/format/records.ts";
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";

export const STARTER_COLUMNS = ["character", "meaning_ko"] as const;
export type StarterRow = CsvRow<(typeof STARTER_COLUMNS)[number]>;

// `훈 음`, several senses separated by `, ` (`즐길 락, 노래 악`).
const SENSE = /^\S(?:.*\S)? ([가-힣])$/;

/**
 * Checks the starter glosses (docs/rules.md "Source data"): one character each, in the dataset, no repeats, and every
 * sense ends with one of the character's readings. Fails with the full list of bad rows.
 */
export function validateStarters(rows: StarterRow[], byCharacter: ReadonlyMap<string, HanjaRecord>, file = "starter.csv"): Map<string, string> {
  const problems: string[] = [];
  const glosses = new Map<string, string>();
  const lines = new Map<string, number>();
  for (const { line, values } of rows) {
    const bad = (why: string) => problems.push(`${file}:${line}: ${why}`);
    const { character, meaning_ko } = values;
    const record = byCharacter.get(character);
    if ([...character].length !== 1) bad(`character ${JSON.stringify(character)} is not one character`);
    else if (!record) bad(`${JSON.stringify(character)} is not in the character dataset`);
    if (lines.has(character)) bad(`${character} repeats line ${lines.get(character)}`);
    lines.set(character, line);
    const senses = meaning_ko.split(", ");
    for (const sense of senses) {
      const reading = SENSE.exec(sense)?.[1];
      if (!reading) bad(`gloss ${JSON.stringify(meaning_ko)} of ${character} is not in 훈음 form ("하늘 천")`);
      else if (record && !record.readings.includes(reading)) {
        bad(`gloss ${JSON.stringify(meaning_ko)} of ${character} ends with ${reading}, not one of its readings (${record.readings.join(", ")})`);
      }
    }
    glosses.set(character, meaning_ko);
  }
  if (problems.length > 0) throw new InputError(`${file}: ${problems.length} bad row(s):\n  ${problems.join("\n  ")}`);
  return glosses;
}
