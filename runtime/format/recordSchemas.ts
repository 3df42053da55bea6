/**
 * The record shapes the service publishes (docs/rules.md "Records"), each declared once as a JSON
 * Schema with its descriptions: the character record and its detail, a variant reference, the
 * idiom of each interface and the list envelope. `records.ts` derives their TypeScript types from
 * these, the OpenAPI document publishes them, the page imports the types, and a test holds the
 * field table of docs/rules.md against them.
 */
import { type Static, type Typed, arrayOf, bool, constant, int, mapOf, nullable, obj, oneOf, schemaRef, str } from "./schema.ts";

/** The Unihan variant properties, in the order their characters are listed in `variants`. */
export const VARIANT_PROPERTIES = [
  "kTraditionalVariant",
  "kSimplifiedVariant",
  "kSemanticVariant",
  "kSpecializedSemanticVariant",
  "kZVariant",
  "kSpoofingVariant",
  "kCompatibilityVariant",
] as const;

/** The values of `school_level` (and of `GET /hanja`'s `school_level` filter): 중학교용 and 고등학교용. */
export const SCHOOL_LEVELS = ["middle", "high"] as const;

/** The `source` of a character record and of a page of characters. */
export const UNIHAN_SOURCE = str("Data source label with the Unihan version, e.g. `Unicode Unihan 17.0.0`.", {
  pattern: "^Unicode Unihan \\d+\\.\\d+\\.\\d+$",
});

/** What `hunum_source` says: libhangul's hanja dictionary and its licence. */
export const HUNUM_SOURCE = "libhangul hanja dictionary (BSD-3-Clause, © 2005–2006 Choe Hwanjin)";

/** The `source` of a page of idioms: the project's own data, not Unihan. */
export const IDIOMS_SOURCE = "Hanja API project original idioms (see idiom terms)";

const CODEPOINT = str("Unicode code point, `U+` and 4 to 6 upper-case hex digits.", { pattern: "^U\\+[0-9A-F]{4,6}$", examples: ["U+6C34"] });
const ONE_CHARACTER = { minLength: 1, maxLength: 1 };

/** One variant character with the dictionary sources Unihan cites for it. */
export const VARIANT_REF = obj("One variant character with the dictionary sources Unihan cites for it.", {
  character: str("The variant character.", ONE_CHARACTER),
  codepoint: CODEPOINT,
  sources: arrayOf("Dictionary sources, e.g. `kMatthews`, `kHanYu:T`; often empty.", str("One source.")),
});

/** Fields of the character record, shared by the record and the detail. */
const HANJA_FIELDS = {
  character: str("The character (one code point; astral characters included).", { ...ONE_CHARACTER, examples: ["水"] }),
  codepoint: CODEPOINT,
  radical: str("The Kangxi radical of `radical_number`, as a CJK unified ideograph.", ONE_CHARACTER),
  radical_strokes_raw: str("Raw Unihan `kRSUnicode` value (may hold several space-separated values, e.g. `85.0`, `120'.3`)."),
  readings_raw: str("Raw Unihan `kHangul` value (e.g. `수:0E`)."),
  strokes_raw: str("Raw Unihan `kTotalStrokes` value (may hold several space-separated values)."),
  variants: str("The variant characters from the Unihan variant properties, distinct, space-separated; empty string when none."),
  source: UNIHAN_SOURCE,
  license_url: str("URL of the Unicode license; keep its notice when redistributing.", { format: "uri" }),
  readings: arrayOf("Korean readings parsed from `kHangul`, order kept, duplicates dropped.", str("One Hangul reading."), { minItems: 1 }),
  strokes: int("First value of `kTotalStrokes`.", { minimum: 1 }),
  radical_number: int("Kangxi radical number (first `kRSUnicode` value).", { minimum: 1, maximum: 214 }),
  starter: bool("True when the character has an original Korean learning gloss (`meaning_ko`)."),
  meaning_ko: nullable(str("Korean learning gloss in 훈음 form (e.g. `물 수`); null unless `starter`.")),
  meaning_ko_source: nullable(str("Where the gloss comes from; null unless `starter`.")),
  definition_en: nullable(str("English definition (Unihan `kDefinition`, original text); null when Unihan has none.")),
  education_hanja: bool("Extra: one of the 1,800 basic hanja for education (Unihan `kKoreanEducationHanja`)."),
  school_level: nullable(
    oneOf(
      SCHOOL_LEVELS,
      "Extra: for the 1,800 education hanja, the school that teaches it in the 2000 교육부 고시 list (한문 교육용 기초 한자): `middle` (중학교용, 900) or `high` " +
        "(고등학교용, 900); null for every other character. From okpyeon's compiled list (CC BY-SA 4.0, see the terms) and the project's map of six characters it spells otherwise.",
      // null is one of the values too (an `enum` without it would refuse it whatever `type` says).
      { enum: [...SCHOOL_LEVELS, null], examples: ["middle"] },
    ),
  ),
  name_hanja: bool("Extra: allowed in Korean personal names (Unihan `kKoreanName`)."),
  reading: str(
    "Extra: the representative reading (대표음), the one a teacher gives first: for the 1,800 education hanja the 음 of their representative 훈음 " +
      "(北 `북`, 行 `행`, 樂 `락`); for the others the reading their words use most, counted in its basic form before the initial-sound law " +
      "(the reader's reading of the character alone), or without words the first of `readings` that is not another's initial-sound form. " +
      "Always one of `readings` or a `hunum` 음; `readings` keeps Unihan's order.",
    { ...ONE_CHARACTER, examples: ["북"] },
  ),
  hunum: arrayOf(
    "Extra: the character's 훈음 (meaning word and reading) from libhangul's hanja dictionary with the project's corrections (`hunum-corrections.csv`), in the dictionary's order; " +
      "for the 1,800 education hanja the project's representative 훈음 (대표훈음, `representative-hunum.csv`) comes first, marked `representative`, and is not repeated further on. " +
      "Empty when it has none. " +
      "A `eum` may be a reading Unihan does not list (the 두음법칙 form, 郎 `낭`, or a reading Unihan lacks, 乾 `간`): compare with `readings`.",
    obj(
      'One 훈음, e.g. 水 `{ "hun": "물", "eum": "수", "representative": true }`.',
      {
        hun: str("The meaning word(s) in Korean (`물`, `즐거울`).", { minLength: 1 }),
        eum: str("The reading (one Hangul syllable).", ONE_CHARACTER),
        representative: constant(true, "Present (true) only on an education hanja's representative 훈음 (대표훈음), its first; absent on every other 훈음."),
      },
      ["representative"],
    ),
  ),
  hunum_source: nullable(
    str("Where `hunum` comes from (libhangul's hanja dictionary and its licence); null when `hunum` is empty.", { enum: [HUNUM_SOURCE, null] }),
  ),
  variants_detail: mapOf(
    "Extra: the variants per Unihan property (only properties the character has), each with its dictionary sources.",
    VARIANT_PROPERTIES,
    arrayOf("Variant references in file order.", schemaRef("VariantRef", VARIANT_REF), { minItems: 1 }),
  ),
};

/** A Han character record with the product's extra fields (component `Hanja`). */
export const HANJA_RECORD = obj("A Han character record with the product's extra fields.", HANJA_FIELDS);

/** `literal` and `meaning` of an idiom record, the same in both interfaces. */
const IDIOM_TEXT = {
  literal: nullable(
    str(
      "Extra: the word-for-word reading of the four characters in Korean (e.g. 空中樓閣 `공중에 떠 있는 누각`); for an idiom from a story, " +
        "the reading and the story in brief. Null when the idiom means just what its characters say (家家戶戶). Quizzes never show it.",
    ),
  ),
  meaning: str(
    "What the idiom means in use: one Korean sentence in original wording, without the literal reading, the idiom's own hanja or any two consecutive syllables of its hangul (the build rejects these).",
  ),
  meaning_en: nullable(
    str(
      "Extra: what the idiom means in use, in English: original wording for learners, written and reviewed by editors, never a gloss of the characters and nothing that gives the idiom away " +
        "(no Hangul, no Han character, no romanization of it; the build rejects these). Null only in a build from a data folder without `idioms-en.csv`.",
    ),
  ),
};

const HANJA_OF_IDIOM = str("The idiom in Han characters (four).", { examples: ["刻骨難忘"] });
const HANGUL_OF_IDIOM = str("Its Hangul reading (four syllables).", { examples: ["각골난망"] });
const CHOSUNG = str("Initial consonants of `hangul` (e.g. `ㄱㄱㄴㅁ`).", { examples: ["ㄱㄱㄴㅁ"] });

/** An idiom as interface A returns it (component `IdiomA`). */
export const IDIOM_A = obj("An idiom as interface A returns it: `idx` is a string, plus `chosung` and `literal`.", {
  idx: str("Stable idiom number as a decimal string.", { pattern: "^[1-9][0-9]*$", examples: ["8"] }),
  hanja: HANJA_OF_IDIOM,
  hangul: HANGUL_OF_IDIOM,
  ...IDIOM_TEXT,
  chosung: CHOSUNG,
});

/** An idiom's raw record of interface B, also the quiz's `answer_idiom` (component `Idiom`). */
export const IDIOM_B = obj("An idiom raw record of interface B: `idx` is an integer; plus `literal`. Also the quiz's `answer_idiom`.", {
  idx: int("Stable idiom number.", { minimum: 1 }),
  hanja: HANJA_OF_IDIOM,
  hangul: HANGUL_OF_IDIOM,
  chosung: CHOSUNG,
  ...IDIOM_TEXT,
});

/** How many of a character's words its detail lists (`words`); `GET /words?char=` lists them all. */
export const DETAIL_WORDS = 3;

/** A hanja word of libhangul's dictionary made of the dataset's characters (component `Word`). */
export const WORD = obj(
  "A hanja word from libhangul's hanja dictionary, made only of characters of the dataset.",
  {
    hanja: str("The word in Han characters (two or more).", { minLength: 2, examples: ["水道"] }),
    readings: arrayOf(
      "Its readings in Hangul, one syllable per character, the South Korean standard spelling first (歷史: `역사`, then the North's `력사`), then the dictionary's order.",
      str("One reading."),
      { minItems: 1 },
    ),
    note: nullable(str("The dictionary's note on the word (`지명` for a place name, a country's name in Hangul), or null.")),
    idiom_idx: nullable(
      str("The `idx` of the project's idiom written the same (`GET /idioms?q=` finds it), or null.", { pattern: "^[1-9][0-9]*$", examples: ["8"] }),
    ),
    meaning_en: nullable(
      str(
        "Extra, in `GET /words` only: the word's meaning in English, the English Wiktionary glosses okpyeon compiles (CC BY-SA 4.0, see the terms) for the word read as one of its `readings`, " +
          "each sense once, separated by `; ` (水道: `water supply; waterworks (municipal utility); tap water`); null when the source has none (15,783 of the words have one). " +
          "Absent where the host serves the data without `words-en.txt` (the npm package, and so a worker built from it) and in a character detail's `words`.",
        { examples: ["water supply; waterworks (municipal utility); tap water"] },
      ),
    ),
  },
  ["meaning_en"],
);

/** A character's detail: its record, every idiom containing it and its first words (component `HanjaDetail`). */
export const HANJA_DETAIL = obj("A Hanja record plus every idiom containing the character, in idx order, and its first words.", {
  ...HANJA_FIELDS,
  idioms: arrayOf("Related idioms in idx order; empty when none.", schemaRef("IdiomA", IDIOM_A)),
  words: arrayOf(
    `Extra: the first ${DETAIL_WORDS} words holding the character, in the order \`GET /words?char=\` lists them (docs/rules.md "Words"); empty when none.`,
    schemaRef("Word", WORD),
    { maxItems: DETAIL_WORDS },
  ),
  word_count: int("Extra: how many words hold the character (`GET /words?char=` lists them all).", { minimum: 0 }),
  stroke_order: nullable(
    oneOf(
      ["ko", "ja", "zh"],
      "Extra: the form of the character's strokes (`/strokes`); null: none, or none on this host.",
      // null is one of the values too (an `enum` without it would refuse it whatever `type` says).
      { enum: ["ko", "ja", "zh", null], examples: ["ko"] },
    ),
  ),
});

/** A character's strokes in writing order (component `HanjaStrokes`), the lines of `dist/strokes.jsonl` and `dist/strokes-ja.jsonl`. */
export const HANJA_STROKES = obj(
  "A character's strokes in writing order, every form in Make Me a Hanzi's frame: draw with `scale(1, -1) translate(0, -900)` in 1024 units. " +
    "`ja` strokes (KanjiVG) have centre lines only: `outline` null, draw `median` as a line with round ends (KanjiVG's width is about 28 units).",
  {
    character: str("The character.", ONE_CHARACTER),
    form: oneOf(
      ["ko", "ja", "zh"],
      "The glyph form drawn: `ko` Korean (animCJK), `zh` Chinese (Make Me a Hanzi), `ja` Japanese (KanjiVG); for `zh` and `ja` the order taught in Korea may differ.",
    ),
    strokes: arrayOf(
      "The strokes, first to last.",
      obj("One stroke.", {
        outline: nullable(str("Its outline: an SVG path; null for `ja` (KanjiVG draws no outline).")),
        median: arrayOf(
          "Its median, in writing direction: points `[x, y]` (for `ja`, the centre line as a polyline within about 2 units of KanjiVG's curve).",
          arrayOf("A point.", int("A coordinate."), { minItems: 2, maxItems: 2 }),
          {
            minItems: 1,
          },
        ),
      }),
      { minItems: 1 },
    ),
    source: obj("The source and its licence.", {
      name: oneOf(["animCJK", "hanzi-writer-data", "KanjiVG"], "The source."),
      url: str("Its address.", { format: "uri" }),
      license: str("SPDX identifier: `Arphic-1999` (animCJK, hanzi-writer-data) or `CC-BY-SA-3.0` (KanjiVG)."),
      attribution: str("The attribution to keep with the data."),
    }),
  },
);

/** One Kangxi radical with how many characters have it (component `Radical`). */
export const RADICAL = obj("One of the 214 Kangxi radicals, with how many characters have it.", {
  radical_number: int("Kangxi radical number, as the records' `radical_number`.", { minimum: 1, maximum: 214 }),
  radical: str("The radical as a CJK unified ideograph (85 → 水, not ⽔), as the records' `radical`.", ONE_CHARACTER),
  strokes: nullable(
    int("Strokes of the radical's ideograph: its first `kTotalStrokes` value; null only in a build from Unihan input without it.", { minimum: 1 }),
  ),
  character_count: int("How many characters have this `radical_number`: the `total` of `/hanja?radical_number=` this number.", { minimum: 0 }),
  characters_url: str("Those characters: `/hanja?radical_number=` this number, a path on this server (resolve it against the request's URL).", {
    format: "uri-reference",
  }),
});

/** Every Kangxi radical in radical order (component `RadicalList`). */
export const RADICAL_LIST = obj("The 214 Kangxi radicals in radical order.", {
  data: arrayOf("Every radical, `radical_number` 1 to 214.", schemaRef("Radical", RADICAL), { minItems: 214, maxItems: 214 }),
  total: int("How many radicals there are: 214.", { minimum: 214, maximum: 214 }),
  source: UNIHAN_SOURCE,
});

/** The bounds of a list page, from the route's parameters. */
export interface PageBounds {
  page: { min: number; max: number };
  per_page: { min: number; max: number };
}

/** A page of search results (docs/rules.md "Records"): `{ data, total, page, per_page, pages, source }`. */
export function listEnvelope<T>(description: string, item: string, itemSchema: Typed<T>, source: Typed<string>, bounds: PageBounds) {
  return obj(description, {
    data: arrayOf(`The ${item} records of the requested page (empty past the end or without match).`, schemaRef(item, itemSchema), {
      maxItems: bounds.per_page.max,
    }),
    total: int("Total matches.", { minimum: 0 }),
    page: int("The page returned.", { minimum: bounds.page.min, maximum: bounds.page.max }),
    per_page: int("The page size used.", { minimum: bounds.per_page.min, maximum: bounds.per_page.max }),
    pages: int("Total pages: ceil(total / per_page); 0 without match.", { minimum: 0 }),
    source,
  });
}

/** A page of `T` records, as `listEnvelope` declares it. */
export type ListEnvelope<T> = Static<ReturnType<typeof listEnvelope<T>>>;

/** The `source` of a page of idioms. */
export const IDIOM_LIST_SOURCE = str("Data source label: the project's own idioms.", { const: IDIOMS_SOURCE });

/** One piece of a run of Han characters as the reader reads it (component `ReadSegment`). */
export const READ_SEGMENT = obj(
  "One piece of a run of Han characters: a word of the dictionary, or one character read alone.",
  {
    hanja: str("The characters as written in the text.", { examples: ["歷史"] }),
    hangul: str("Their reading; a character without a Korean reading stays as written.", { examples: ["역사"] }),
    source: oneOf(
      ["dictionary", "characters", "none"],
      "`dictionary`: a word of the dictionary; `characters`: one character read alone; `none`: a character without a Korean reading.",
    ),
    other_readings: arrayOf("The dictionary's other readings of the word (of a single character, its other readings); empty when none.", str("One reading.")),
    offset: int("Where the piece starts in `text`, in UTF-16 code units (JavaScript string indexes).", { minimum: 0 }),
    href: str("A single character's detail on this service (its path), when the character is in the dataset.", { examples: ["/hanja/v1/hanja/%E6%B0%B4"] }),
    idiom_idx: int("The idiom written so, by its `idx`, when the word is one of the idioms.", { minimum: 1 }),
  },
  ["href", "idiom_idx"],
);

/** A text and its reading (component `ReadResult`): what `GET`/`POST /read` answer and `readHanja` returns. */
export const READ_RESULT = obj("A text and its reading.", {
  text: str("The text as sent."),
  hangul: str(
    "The whole text read in the form `format` asks: `hangul` (default) each Han character read, everything else unchanged; `paren` each run of Han characters read and followed by the run in parentheses; `ruby` HTML `<ruby>` markup, the text HTML-escaped.",
    { examples: ["대한민국은 민주공화국이다"] },
  ),
  segments: arrayOf("The pieces of every run of Han characters, in text order.", schemaRef("ReadSegment", READ_SEGMENT)),
});
/** The `source` of a page of words. */
export const WORD_LIST_SOURCE = str("Data source label: libhangul's hanja dictionary and its licence.", { const: HUNUM_SOURCE });
