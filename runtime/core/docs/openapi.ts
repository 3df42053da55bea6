/**
 * The OpenAPI 3.1 document of both interfaces and the service routes (docs/rules.md "Headers"), built for the
 * configured base paths. Paths carry their base, so the one server entry is the service root.
 */
import type { LoadedData } from "../data/load.ts";
import { API_KEY_CHALLENGE } from "../routes/metering.ts";
import { PLAN_TABLE } from "../quota/plans.ts";
import { QUIZ_TYPE_DOCS } from "./quizTypeDocs.ts";
import { count } from "../util/count.ts";
import type { Mounted } from "../operations/operation.ts";
import { ERROR_CODES } from "./errorCodes.ts";
import { parameterComponents, parameterRefs } from "./parameters.ts";
import { quizSchemas } from "../../format/quizSchemas.ts";
import { QUIZ_TERMS } from "./quizTerms.ts";
import { HEADERS, sharedResponses } from "./responses.ts";
import { hanjaSchemas } from "./schemas.ts";
import type { OpenApiDocument, Operation, Parameter, PathItem, PlanDoc } from "./types.ts";

export type { OpenApiDocument } from "./types.ts";

/** Where the service is served, and whether the admin routes are on: what the document describes besides the data. */
export interface ServiceBases {
  hanjaBase: string;
  quizBase: string;
  /** Where the host serves the service (default `""`: its root); see `AppOptions.mountPath`. */
  mountPath?: string;
  adminEnabled: boolean;
}

/**
 * The document for this data, these bases and these operations (mounted, in the reference's order),
 * with the parameter components derived from their declarations unless given (the app derives
 * them as it starts, from every documented operation's, the admin routes' even when not mounted).
 */
export function buildOpenApi(
  data: LoadedData,
  bases: ServiceBases,
  operations: readonly Mounted[],
  parameters: Readonly<Record<string, Parameter>> = parameterComponents(operations),
): OpenApiDocument {
  const { hanjaBase, quizBase } = bases;
  const unihan = data.manifest.unihan.version;
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Hanja API",
      version: "1.0.0",
      description: describeService(bases, unihan, data),
      license: { name: "Unicode License V3 (Unihan-derived data); idiom terms for the project's own content", url: "https://www.unicode.org/license.txt" },
    },
    servers: [
      !bases.mountPath
        ? { url: "/", description: "This server (paths include the configured base paths)." }
        : { url: bases.mountPath, description: `This server, where its host serves it under ${bases.mountPath} (paths include the configured base paths).` },
    ],
    tags: [
      {
        name: "Characters",
        description: `Interface A under \`${hanjaBase || "/"}\`: Han characters with Korean readings (Unicode Unihan ${unihan}) and idiom lookup. Public, no key.`,
      },
      {
        name: "Quiz",
        description: `Interface B under \`${quizBase || "/"}\`: Korean four-character idioms, quizzes, key status and the annual-plan application. Metered.`,
      },
      ...(bases.adminEnabled ? [{ name: "Admin", description: "Operator routes: confirm deposits, revoke keys. `Authorization: Bearer <ADMIN_TOKEN>`." }] : []),
      { name: "Service", description: "Liveness, this document and the API reference." },
    ],
    paths: pathsOf(operations),
    components: {
      schemas: { ...hanjaSchemas(), ...quizSchemas(QUIZ_TERMS) },
      parameters: { ...parameters },
      headers: HEADERS,
      responses: sharedResponses(),
      securitySchemes: {
        ApiKeyHeader: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description:
            "Interface B key (`hj_` and 32 letters and digits) from `POST /subscribe`. Optional: without a key a call runs as the demo, limited per client IP. " +
            "An unknown or malformed key is `401` (never the demo) with `WWW-Authenticate: " +
            API_KEY_CHALLENGE +
            "`; an expired or revoked key is `403`. " +
            "An empty value (`X-API-Key:` or `api_key=`) counts as no key.",
        },
        ApiKeyQuery: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description:
            "The same key as a query parameter (redacted in the access log). If both are sent they must be equal, else `400`; so must a header sent twice.",
        },
        ...(bases.adminEnabled
          ? { AdminToken: { type: "http" as const, scheme: "bearer", description: "The operator's `ADMIN_TOKEN`, compared in constant time." } }
          : {}),
      },
    },
    "x-error-codes": ERROR_CODES,
    "x-plans": PLAN_TABLE.map((row): PlanDoc => ({ ...row })),
  };
}

/** The OpenAPI paths of the documented operations, each path's item with its note and one operation per method. */
export function pathsOf(mounted: readonly Mounted[]): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const { path, operation } of mounted) {
    const { doc, parameters: specs } = operation;
    if (doc === undefined) continue;
    const { examples, pathNote, ...fields } = doc;
    const documented: Operation = { ...fields, "x-request-examples": examples };
    if (specs !== undefined && Object.keys(specs).length > 0) documented.parameters = parameterRefs(specs);
    const item = (paths[path] ??= { description: pathNote });
    item[operation.method === "GET" ? "get" : "post"] = documented;
  }
  return paths;
}

/** The introduction: what the service is and the rules every operation shares. */
function describeService(bases: ServiceBases, unihan: string, data: LoadedData): string {
  const { hanjaBase, quizBase } = bases;
  return [
    "Two HTTP/JSON interfaces of one service.",
    `- **Interface A (characters)** under \`${hanjaBase || "/"}\`: ${count(data.counts.characters)} Han characters with Korean readings from Unicode Unihan ${unihan} ` +
      `(${data.counts.starters} with an original Korean learning gloss, ${count(data.counts.education_hanja)} basic hanja for education), ` +
      "character search, details with related idioms, idiom search and metadata. Public and read-only; no key, no quota, no SLA.",
    `- **Interface B (quiz)** under \`${quizBase || "/"}\`: ${data.counts.idioms} Korean four-character idioms as raw data and as multiple-choice quizzes, ` +
      "key status and the annual-plan application. Metered per day; a key is optional (demo without one).",
    "## Conventions",
    "- Responses are JSON in UTF-8 (`application/json; charset=utf-8`), nothing HTML-escaped; errors are `application/problem+json`.",
    "- Query integers are plain decimal digits within the documented bounds; anything else is `400 invalid_parameter`. A parameter given twice is `400`. Unknown parameters are ignored. " +
      "Text parameters are trimmed of spaces and of punctuation around them (`“각골난망.”` is `각골난망`; punctuation alone stays, and matches nothing), and their length is counted in code points; as sent, before trimming, a value may be at most four times the limit (longer: `400`). They are matched composed (Unicode NFC: Hangul sent as conjoining jamo, as macOS keeps it, reads as the syllables), except that a CJK compatibility ideograph stays itself, and full-width ASCII (`ＷＡＴＥＲ`) reads as ASCII. " +
      "A value that is not valid percent-encoded UTF-8 (`%zz`, `%E6%B0`) is `400`.",
    "- Every `GET` also answers `HEAD`. A known path with another method is `405` with `Allow`; an unknown path is `404`.",
    '- CORS: `Access-Control-Allow-Origin: *` on every response. A preflight is answered `204` on every path for the method and the headers it asks for (when they are a list of header names), so a page reads the real answer that follows (a `404`, a `405`, a `401`) rather than a CORS failure. Scripts may read the rate-limit headers, `Retry-After`, `ETag`, `Allow`, `WWW-Authenticate` and `X-Request-Id`: each response\'s `Access-Control-Expose-Headers` names those of them it carries, and is absent when it carries none. Send no credentials: browsers refuse a credentialed request (`credentials: "include"`, axios `withCredentials`) to a `*` origin, and the service uses no cookies.',
    "- Bodies of 1 KiB or more are compressed when the client accepts it: brotli (`br`) where the server runtime has it (the standalone servers do), else gzip.",
    "- Interface A and this reference: `Cache-Control: public, max-age=86400` and a strong `ETag` (interface A's from the data hash, this reference's from its own bytes); `If-None-Match` gives `304`. Interface B: `Cache-Control: no-store`.",
    "## Quotas",
    "Interface B's metered calls (`/quiz`, `/idiom`, `/idiom/{idx}`, `/search`) count one call each, whatever `count`; `/me` and `/subscribe` are not metered, and a `400` for a bad parameter is not counted. " +
      "The day is the calendar day in Asia/Seoul (UTC+09:00) unless the operator configured another offset; counters reset at its midnight. " +
      'Every metered response carries `RateLimit-Policy: "daily";q=<limit>;w=86400`, `RateLimit: "daily";r=<remaining>;t=<seconds to reset>`, ' +
      "`X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds). Over the limit: `429 quota_exceeded` with `Retry-After`.",
    "## Idioms and quizzes",
    ...idiomNotes(data),
    "## Errors",
    "Every error is an RFC 9457 problem details body `{type, title, status, detail, code, success: false, param?, request_id}`; branch on the stable `code`. " +
      "`type` is `/docs#error-<code>` (under the host's mount path when the service is mounted under one), a link to the error table of the API reference.",
    "## Versioning",
    `API description 1.0.0; the version is part of the base paths. Data: Unicode Unihan ${unihan}; \`GET ${hanjaBase}/meta\` reports the versions and counts.`,
  ].join("\n\n");
}

/** The idiom content and quiz rules the reference states once (README: Quizzes). */
function idiomNotes(data: LoadedData): string[] {
  const { group, mature } = data.idioms.quiz;
  const grouped = group.filter((members) => members.length > 0).length;
  const groups = group.filter((members, p) => members.length > 0 && members.every((q) => q > p)).length;
  return [
    "- Every idiom record (both interfaces, the quiz's `answer_idiom` included) has `meaning`, what the idiom means in use, and `literal`, the word-for-word reading of its characters " +
      "(for an idiom from a story, with the story in one sentence), or null when the idiom means just what its characters say. A meaning never contains the idiom's own hanja, " +
      "two consecutive syllables of its hangul or a literal lead-in; the build rejects them.",
    `- Synonym groups: ${groups} groups of idioms a fair reader could take for the same answer (${grouped} idioms), e.g. 각골난망/백골난망, 진퇴양난/진퇴유곡. ` +
      "A quiz never offers a wrong choice from the answer's group, and never shows `literal` in a prompt or a choice.",
    `- \`GET /quiz?difficulty=hard\` draws wrong choices that look like the answer, ${QUIZ_TYPE_DOCS.hard}; ` +
      `\`normal\` (the default) draws them at random. ${QUIZ_TYPE_DOCS.sameEum} ` +
      "`seed` repeats a draw (the same quiz for a whole class) while the data release stays the same. " +
      `${mature.length} idiom(s) withheld from the school set are left out of quizzes and random idioms unless \`mature=1\`.`,
  ];
}
