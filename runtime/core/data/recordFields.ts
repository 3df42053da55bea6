/**
 * The few fields of a character record that quizzes and search by 훈 read, cut from the record's
 * text: its readings, 훈음 and variants. Parsing the three small values takes a sixth of the time of
 * parsing whole records (with their variant sources), which the first character quiz or search by
 * 훈 waits for. Found with `indexOf`, so the work is linear in the text.
 */

/** One 훈음: the meaning word(s) and the reading. */
export interface Hunum {
  hun: string;
  eum: string;
}

/** A record's readings (Unihan's), 훈음 (in its `hunum` order) and variants (`variants`, space-separated). */
export interface RecordFields {
  readings: string[];
  hunum: Hunum[];
  variants: string;
}

/** The record fields read, each a JSON value without nesting: an array of readings or 훈음, or a string (what ends it). */
const FIELDS = { readings: "]", hunum: "]", variants: '"' } as const;

/** The readings, 훈음 and variants of the record at `position` (for messages), read from its text. */
export function fieldsOf(text: string, position: number): RecordFields {
  const value = (field: keyof typeof FIELDS) => {
    const key = `"${field}":`;
    const start = text.indexOf(key) + key.length;
    const end = start < key.length ? -1 : text.indexOf(FIELDS[field], start + 1);
    if (end === -1) throw new Error(`dist: record ${position + 1} has no ${field}; rebuild dist/`);
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  };
  return { readings: value("readings") as string[], hunum: value("hunum") as Hunum[], variants: value("variants") as string };
}
