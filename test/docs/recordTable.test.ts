/**
 * The record shapes are declared once, as JSON Schemas (runtime/format/recordSchemas.ts): the types
 * the code uses are derived from them, the OpenAPI document publishes them as they are, and the
 * field table of docs/rules.md "Records" is held against them here, so a field added, removed or
 * retyped in one place and not the other fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quizRecords } from "../../runtime/format/quizSchemas.ts";
import { QUIZ_TERMS } from "../../runtime/core/docs/quizTerms.ts";
import { HANJA_DETAIL, HANJA_RECORD, IDIOM_A, IDIOM_B, READ_RESULT, READ_SEGMENT, VARIANT_REF, WORD } from "../../runtime/format/recordSchemas.ts";
import type { Schema } from "../../runtime/format/schema.ts";
import { ROOT, getJson, testApp } from "../helpers/app.ts";

const RULES = readFileSync(join(ROOT, "docs/rules.md"), "utf8");
const { choice: CHOICE, quiz: QUIZ, keyStatus: KEY_STATUS_RECORD } = quizRecords(QUIZ_TERMS);

/** The rows `| \`field\` | type | … |` of the first table after `heading`. */
function tableRows(markdown: string, heading: string): { field: string; type: string }[] {
  const section = markdown.slice(markdown.indexOf(heading));
  const table = section.slice(section.indexOf("\n|")).split("\n\n")[0] ?? "";
  return [...table.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)].map((m) => ({ field: m[1] as string, type: (m[2] as string).trim() }));
}

/** How docs/rules.md writes a property's type. */
function typeName(schema: Schema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeName({ ...schema, type: t })).join(" or ");
  if (type === "array") return `${typeName(schema.items as Schema)}[]`;
  return String(type);
}

const properties = (schema: Schema) => schema.properties as Record<string, Schema>;

describe("docs/rules.md's record table", () => {
  const rows = tableRows(RULES, "## Records");

  it("lists the character record's published fields, in the schema's order, with the schema's types", () => {
    expect(rows.length).toBe(16);
    const schema = properties(HANJA_RECORD);
    expect(rows.map((r) => r.field)).toEqual(Object.keys(schema).slice(0, rows.length));
    for (const { field, type } of rows) expect(typeName(schema[field] as Schema), field).toBe(type);
  });

  it("names the extra fields after the table, and those are the schema's remaining ones", () => {
    const extras = Object.keys(properties(HANJA_RECORD)).slice(rows.length);
    expect(extras).toEqual(["education_hanja", "school_level", "name_hanja", "reading", "hunum", "hunum_source", "variants_detail"]);
    const prose = RULES.slice(RULES.indexOf("The service adds"), RULES.indexOf("Interface B (`/quiz/v1`) publishes"));
    for (const field of extras) expect(prose, field).toContain(`\`${field}\``);
  });

  it("describes the idioms, the words, the detail and the quiz with the fields their schemas have", () => {
    const prose = RULES.slice(RULES.indexOf("An **idiom item**"), RULES.indexOf("## Unihan fields"));
    for (const schema of [IDIOM_A, IDIOM_B, WORD, CHOICE, QUIZ]) {
      for (const field of Object.keys(properties(schema))) expect(prose, field).toContain(`\`${field}\``);
    }
    const detailExtras = Object.keys(properties(HANJA_DETAIL)).slice(Object.keys(properties(HANJA_RECORD)).length);
    expect(Object.keys(properties(HANJA_DETAIL))).toEqual([...Object.keys(properties(HANJA_RECORD)), "idioms", "words", "word_count", "stroke_order"]);
    for (const field of detailExtras) expect(prose, field).toContain(`\`${field}\``);
  });
});

describe("docs/rules.md's reader", () => {
  it("names every field of the reading and of its segments", () => {
    const prose = RULES.slice(RULES.indexOf("- `GET /read?text=`"), RULES.indexOf("- `GET /meta`"));
    for (const schema of [READ_RESULT, READ_SEGMENT]) {
      for (const field of Object.keys(properties(schema))) expect(prose, field).toContain(`\`${field}\``);
    }
  });
});

describe("the OpenAPI document publishes the declared records as they are", () => {
  it("Hanja, HanjaDetail, VariantRef, IdiomA, Word, Idiom, Choice, Quiz and KeyStatus are the declarations", async () => {
    const { body } = await getJson(testApp(), "/openapi.json");
    const published = body.components.schemas;
    const declared = {
      Hanja: HANJA_RECORD,
      HanjaDetail: HANJA_DETAIL,
      VariantRef: VARIANT_REF,
      IdiomA: IDIOM_A,
      Word: WORD,
      Idiom: IDIOM_B,
      Choice: CHOICE,
      Quiz: QUIZ,
      KeyStatus: KEY_STATUS_RECORD,
    };
    for (const [name, schema] of Object.entries(declared)) expect(published[name], name).toEqual(JSON.parse(JSON.stringify(schema)));
  });
});
