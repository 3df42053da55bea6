/**
 * The `dist/` format shared by the pipeline (writer) and the runtime (reader). Bump
 * `DIST_FORMAT` whenever a file's shape changes; the runtime refuses any other value. The search
 * indexes' options are in `searchOptions.ts`.
 */

/**
 * 2: idioms carry `literal`; `quiz.json` (synonym groups, withheld idioms, distractor pools) added.
 * 3: `tables.json` lists the byte length of every line of `details.jsonl` (`detailBytes`).
 * 4: idioms carry `meaning_en`; the idiom index holds it beside `meaning`.
 * 5: records carry `hunum` and `hunum_source`; `tables.json` lists each record's 훈음 (`hunum`) and flags
 * the records that have one; the counts include `with_hunum`; terms.md ends with the dictionary's notice.
 * 6: `words.txt` (the dictionary's words); each detail ends with its first `words` and `word_count`.
 * 7: records carry `reading` (the representative reading) and an education hanja's first 훈음 is marked
 * `representative`; `tables.json` lists each record's `reading`.
 * 8: `words.txt` lists each education hanja's core words after its syllables, and each word's
 * reading it is read with first (the reader takes the first); `tables.json` no longer repeats the records'
 * 훈음 (`hunum`): the runtime reads them from the records.
 * 9: records carry `school_level` (`middle`, `high` or null); `tables.json` flags each level; the counts
 * include `middle_school_hanja` and `high_school_hanja`; terms.md ends with the school levels' attribution;
 * `words-en.txt` (the words' English glosses, `meaning_en`), read where present.
 * 10: `strokes.jsonl`, `stroke-forms.txt` (details end with `stroke_order`); `/meta`'s `stroke_order`.
 * 11: `strokes-ja.jsonl` (KanjiVG's Japanese forms, CC BY-SA 3.0: each stroke's `outline` null);
 * `stroke-forms.txt` says `j` for them.
 */
export const DIST_FORMAT = 11;

/** File names inside `dist/`. */
export const DIST_FILES = {
  manifest: "manifest.json",
  /** One serialized Hanja record per line, code point order. */
  characters: "characters.jsonl",
  /** One serialized character detail body per line, same order. */
  details: "details.jsonl",
  /** Compact columns for filters, ordering and exact lookups. */
  tables: "tables.json",
  /** Idiom records, `idx` order. */
  idioms: "idioms.json",
  /** MiniSearch index over `definition_en` and `meaning_ko` (id = record position). */
  searchCharacters: "search-characters.json",
  /** MiniSearch index over idiom meanings (id = idiom position). */
  searchIdioms: "search-idioms.json",
  /** What quizzes draw distractors from (see `QuizTables`). */
  quiz: "quiz.json",
  /** The `/meta` body without the measured counts. */
  meta: "meta.json",
  /** The idiom terms (licence of the project's own content), served as text. */
  terms: "terms.md",
  /** The dictionary's words made of the dataset's characters, in the order they are listed (`format/words.ts`). */
  words: "words.txt",
  /**
   * The words' English glosses (`meaning_en`, CC BY-SA 4.0, kept apart): one `hanja<TAB>gloss` line per
   * glossed word, code point order. Optional at run time (`OPTIONAL_FILES`).
   */
  wordsEn: "words-en.txt",
  /** Each character's strokes (Arphic PL): one `GET /hanja/{character}/strokes` body per line. */
  strokes: "strokes.jsonl",
  /**
   * KanjiVG's strokes (CC BY-SA 3.0, kept apart from the Arphic PL ones): the same bodies, each
   * stroke's centre line as `median` and `outline` null, for the records neither other source draws.
   */
  strokesJa: "strokes-ja.jsonl",
  /** Each record's stroke form, one letter (`STROKE_FORM_CODES`). */
  strokeForms: "stroke-forms.txt",
} as const;

/**
 * The files the runtime reads when they are there, and does without otherwise: the words' English
 * glosses (about 0.23 MB gzipped) are served by the server programs, the bundle, the binary and the
 * container, which read dist/, but left out of the npm package (and so of a worker built from it)
 * to keep it within its 3 MB: there the words have no `meaning_en` (docs/embedding.md).
 */
export const OPTIONAL_FILES: readonly string[] = [DIST_FILES.wordsEn];

/** Read where present: the strokes on the first strokes request, the forms with the first detail (docs/embedding.md). */
export const STROKE_FILES: readonly string[] = [DIST_FILES.strokes, DIST_FILES.strokesJa, DIST_FILES.strokeForms];

/**
 * The files the runtime always reads (the optional and stroke files only where present).
 * `characters.jsonl` is left out: every record is the head of its
 * detail body (the detail is the record with `idioms` appended), so the runtime slices records
 * from the details instead of holding both.
 */
export const RUNTIME_FILES: readonly string[] = Object.values(DIST_FILES).filter(
  (name) => name !== DIST_FILES.characters && !OPTIONAL_FILES.includes(name) && !STROKE_FILES.includes(name),
);

/**
 * The revision of the bytes the runtime serves for unchanged `dist/` data (list envelopes, /meta;
 * the docs are tagged by their own bytes). Interface A's strong ETags carry it beside the data hash, so a cache revalidating a tag of
 * an older release gets the new bytes: bump it whenever a release changes those bytes. (Builds are
 * reproducible, `built_at` coming from the inputs: the data hash stays when only code changes.)
 * 2: a page of idioms names the project's idioms as its source, not Unihan; /docs says which
 * address its curl examples use. 3: idiom items carry `literal`.
 */
export const BODY_REVISION = 3;

/** `dist/manifest.json`. */
export interface Manifest {
  format: number;
  unihan: { version: string; detected_by: "header" | "fingerprint"; origin: string; sha256: string | null };
  inputs: Record<string, string>;
  counts: DataCounts;
  /** SHA-256 over every other file in `dist/`; the runtime's ETags derive from it. */
  data_hash: string;
  files: Record<string, { bytes: number; sha256: string }>;
  /** `SOURCE_DATE_EPOCH`, else the Unihan input's newest file time: never the clock. */
  built_at: string;
}

export interface DataCounts {
  characters: number;
  starters: number;
  education_hanja: number;
  /** Education hanja taught in middle school (`school_level` `middle`), and in high school. */
  middle_school_hanja: number;
  high_school_hanja: number;
  name_hanja: number;
  idioms: number;
  /** Characters with at least one 훈음 (`hunum`). */
  with_hunum: number;
}

/**
 * `dist/tables.json`: one entry per record, record order (= code point order). Flags: bit 0
 * starter, bit 1 education hanja, bit 2 name hanja, bit 3 has 훈음, bit 4 `school_level` middle, bit 5 high. `readings` maps a Hangul reading to record positions.
 */
export interface Tables {
  characters: string[];
  strokes: number[];
  radical: number[];
  flags: number[];
  readings: Record<string, number[]>;
  /** Starter glosses as `[position, meaning_ko]`. */
  glosses: [number, string][];
  /** Each record's `reading` (one Hangul syllable each, record order): what the reader gives a character outside any word. */
  reading: string;
  /** Idiom positions per character (idx order). */
  idiomsByCharacter: Record<string, number[]>;
  /**
   * The UTF-8 length of each record's line in `details.jsonl`, newline excluded: the runtime finds
   * a detail's bytes without decoding or scanning the file.
   */
  detailBytes: number[];
  /**
   * The strokes of each Kangxi radical in radical order (index n − 1): the first `kTotalStrokes` of
   * its unified ideograph, read whether or not that ideograph is a record; `null` only in a build
   * from an input without it (never from the pinned release).
   */
  radicalStrokes: (number | null)[];
}

/**
 * `dist/quiz.json`: what quizzes draw their wrong choices from, by idiom position (idx order).
 * Made by the pipeline from the content files (synonym groups, withheld idioms) and the meanings.
 */
export interface QuizTables {
  /** Per idiom, the positions of the other members of its synonym group: never its distractors. */
  group: number[][];
  /** Positions of the idioms left out of quizzes and random idioms unless a call asks for them (`mature=1`). */
  mature: number[];
  /** Per idiom, idioms whose hanja or hangul look like it (a shared character or syllable, the same first two initial consonants), most alike first. */
  lookalike: number[][];
  /** Per idiom, the idioms with the closest meanings (same measure as the build's similarity check), closest first. */
  theme: number[][];
}

export const FLAG_STARTER = 1;
export const FLAG_EDUCATION = 2;
export const FLAG_NAME = 4;
export const FLAG_HUNUM = 8;
export const FLAG_MIDDLE_SCHOOL = 16;
export const FLAG_HIGH_SCHOOL = 32;
