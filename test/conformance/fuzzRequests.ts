/**
 * Random HTTP/1.1 requests for the process fuzz test (fast-check arbitraries): any method token,
 * targets built from the service's paths with random segments and queries (valid and broken
 * escapes, raw UTF-8, huge numbers, repeated parameters, a list given hundreds of times), random header fields and bodies, framed
 * correctly so that what is tested is the service, not the runtime's parser.
 */
import fc from "fast-check";

const PATHS = [
  "/hanja/v1/hanja",
  "/hanja/v1/hanja/{x}",
  "/hanja/v1/hanja/{x}/strokes",
  "/hanja/v1/idioms",
  "/hanja/v1/words",
  "/hanja/v1/meta",
  "/hanja/v1/read",
  "/hanja/v1/radicals",
  "/quiz/v1/quiz",
  "/quiz/v1/idiom",
  "/quiz/v1/idiom/{x}",
  "/quiz/v1/search",
  "/quiz/v1/me",
  "/quiz/v1/subscribe",
  "/quiz/v1/grade",
  "/quiz/v1/classes",
  "/quiz/v1/classes/{x}",
  "/quiz/v1/classes/cq_{x}",
  "/quiz/v1/classes/{x}/submissions",
  "/quiz/v1/classes/cq_AAAAAAAAAAAAAAAAAAAAAA/submissions",
  "/quiz/v1/classes/{x}/results",
  "/quiz/v1/admin/keys",
  "/quiz/v1/admin/keys/{x}",
  "/quiz/v1/admin/keys/{x}/confirm",
  "/quiz/v1/admin/keys/{x}/revoke",
  "/quiz/v1/admin/keys/{x}/usage",
  // A trailing slash is ignored on every path: the lists above item routes, an item, a path of the root.
  "/hanja/v1/hanja/",
  "/quiz/v1/idiom/",
  "/hanja/v1/hanja/{x}/",
  "/hanja/v1/hanja/{x}/strokes/",
  "/quiz/v1/idiom/{x}//",
  "/quiz/v1/admin/keys/{x}/",
  "/hanja/v1/radicals/",
  "/healthz/",
  "/healthz",
  "/openapi.json",
  "/docs",
  "/",
  "/{x}",
  "/hanja/v1/{x}/../meta",
  "/quiz/v1/{x}",
];
const PARAMS = [
  "q",
  "page",
  "per_page",
  "strokes",
  "radical_number",
  "starter",
  "education",
  "school_level",
  "sort",
  "char",
  "type",
  "choices",
  "count",
  "exclude",
  "difficulty",
  "seed",
  "mature",
  "lang",
  "level",
  "answer_format",
  "reveal",
  "title",
  "open_hours",
  "students_max",
  "text",
  "format",
  "api_key",
  "status",
  "token",
  "{x}",
];
/** Methods every runtime's parser takes (each gets an answer); other tokens may be refused with a closed connection (Bun). */
export const KNOWN_METHODS = ["GET", "HEAD", "POST", "OPTIONS", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT"];
const METHODS = ["GET", "GET", "GET", ...KNOWN_METHODS];

/** Text that matters in a URL or a field: escapes good and bad, separators, Han, Hangul, astral, controls. */
const special = fc.constantFrom(
  "%",
  "%%",
  "%E6%B0",
  "%ED%A0%80",
  "%FF",
  "%00",
  "%2F",
  "&",
  "=",
  "+",
  "?",
  ";",
  "..",
  ".",
  "水",
  "𮕩",
  "수",
  "ㄱ",
  "U+6C34",
  "6C34",
  "hj_",
  "-1",
  "0",
  "99999999999999999999",
  "1e3",
  "1.5",
  " ",
  "\u3000",
  "null",
  "[]",
  "'\"<>",
  "hunum_to_hanja,idiom_blank",
  "hanja_to_reading",
  "typed",
  "middle",
  "high",
  "reading",
  "codepoint",
  "qz_",
  "cq_AAAAAAAAAAAAAAAAAAAAAA",
);
const text = fc
  .array(fc.oneof(special, fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 4 })), { maxLength: 6 })
  .map((parts) => parts.join(""));
/** A piece of a target: form-encoded, raw (UTF-8 as sent by curl), or arbitrary escaped bytes. */
const piece = fc.oneof(
  { arbitrary: text.map(encodeURIComponent), weight: 4 },
  { arbitrary: text.map((t) => t.replace(/[\u0000-\u0020\u007f#]/g, "")), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 8 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")), weight: 1 },
);
const path = fc.tuple(fc.constantFrom(...PATHS), piece).map(([template, x]) => template.replace("{x}", x));
/**
 * A list parameter given many times (`type=a&type=b…`, read as the comma list), with values good
 * and bad, up to past `exclude`'s 200 values: at most about 9 KB, sent only without a long run
 * (the head stays inside 16 KiB).
 */
const repeatedList = fc
  .tuple(
    fc.constantFrom("type", "exclude"),
    fc.array(
      fc.oneof(
        fc.constantFrom("meaning_to_idiom", "hangul_to_hanja", "hunum_to_hanja", "bogus", "1", "42", "999999", "0", "x", "", "%2C", ",", "1,2"),
        fc.string({ maxLength: 4 }).map(encodeURIComponent),
      ),
      { minLength: 2, maxLength: 210 },
    ),
  )
  .map(([name, values]) => values.map((value) => `${name}=${value}`).join("&"));
const query = fc
  .array(fc.tuple(fc.constantFrom(...PARAMS), piece, piece), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, x, value]) => `${name.replace("{x}", x)}=${value}`).join("&")}`));
/**
 * A long run of one space or punctuation character, a letter or Han character on either side or
 * not: the input whose trimming once took time growing with the square of its length. At most
 * 15,000 bytes as sent, inside the 16 KiB of request head every runtime takes.
 */
const longRun = fc
  .tuple(
    fc.constantFrom("!", ".", "(", ")", "-", "+", "%20", "%E3%80%82", "%E2%80%9C"),
    fc.integer({ min: 1_000, max: 15_000 }),
    fc.constantFrom("", "a", "%E6%B0%B4"),
  )
  .map(([unit, bytes, edge]) => `${edge}${unit.repeat(Math.floor(bytes / unit.length))}${edge === "" ? "" : "b"}`);
/** At most one long run per request (so the head stays inside 16 KiB): a query value, a path segment, or none. */
const runPlace = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: fc.tuple(fc.constant("query" as const), fc.constantFrom(...PARAMS.filter((p) => p !== "{x}")), longRun), weight: 2 },
  { arbitrary: fc.tuple(fc.constant("path" as const), fc.constantFrom(...PATHS.filter((p) => p.includes("{x}"))), longRun), weight: 1 },
);
const method = fc.oneof({ arbitrary: fc.constantFrom(...METHODS), weight: 5 }, { arbitrary: fc.stringMatching(/^[A-Z]{3,8}$/), weight: 1 });

/** A header value: visible ASCII and spaces only (the framing stays valid). */
const fieldValue = fc.oneof(
  fc.constantFrom(
    "gzip",
    "br",
    "gzip, br",
    "identity",
    "*;q=0",
    "application/json",
    "text/plain",
    "application/json; charset=latin1",
    '"abc"',
    "*",
    'W/"x"',
    "GET",
    "X-API-Key",
    "bytes=0-10",
    "127.0.0.1",
    "::1",
    "10.0.0.1, 10.0.0.2",
    "Bearer x",
    "hj_0123456789abcdefghijABCDEFGHIJ01",
  ),
  fc.stringMatching(/^[!-~][ !-~]{0,40}$/),
);
const FIELDS = [
  "Accept-Encoding",
  "If-None-Match",
  "X-API-Key",
  "Content-Type",
  "X-Forwarded-For",
  "Origin",
  "Access-Control-Request-Method",
  "Access-Control-Request-Headers",
  "Authorization",
  "Range",
  "Accept",
  "X-Fuzz",
];
const headers = fc.array(fc.tuple(fc.constantFrom(...FIELDS), fieldValue), { maxLength: 6 });

const body = fc.oneof(
  fc.constant(""),
  fc.record({ name: text, email: fc.oneof(fc.emailAddress(), text), phone: fc.option(text), depositor: fc.option(text) }).map((value) => JSON.stringify(value)),
  fc.json(),
  fc
    .record({ quiz_id: fc.oneof(text, fc.constant("qz_AQIAAwAAAPQAawmiO3R7NYk3AgWCbAzsRntQLl80KRV6G93B")), answer: text })
    .map((value) => JSON.stringify(value)),
  fc.array(fc.record({ quiz_id: text, answer: text }), { maxLength: 25 }).map((value) => JSON.stringify(value)),
  // A class quiz (POST /classes) and a student's submission, fields valid and not.
  fc
    .record(
      {
        type: fc.oneof(text, fc.array(text, { maxLength: 3 })),
        count: fc.oneof(fc.integer({ min: -5, max: 30 }), text),
        title: text,
        open_hours: fc.oneof(fc.integer(), text),
        students_max: fc.oneof(fc.integer(), fc.double()),
        answer_format: fc.constantFrom("typed", "choices", ""),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.record({ name: text, answers: fc.oneof(fc.array(text, { maxLength: 25 }), fc.json()) }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  text,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.integer({ min: 8_000, max: 12_000 }).map((n) => `{"name":"${"a".repeat(n)}"}`),
);

/** One whole request: its method and bytes. */
export const fuzzRequest = fc
  .tuple(method, path, query, headers, body, runPlace, fc.option(repeatedList, { freq: 4 }))
  .map(([verb, randomTarget, randomQuery, fields, content, run, repeated]) => {
    const bytes = Buffer.from(content, "latin1");
    const target = run?.[0] === "path" ? run[1].replace("{x}", run[2]) : randomTarget;
    const randomSearch = repeated === null || run !== undefined ? randomQuery : `${randomQuery === "" ? "?" : `${randomQuery}&`}${repeated}`;
    const search = run?.[0] === "query" ? `${randomSearch === "" ? "?" : `${randomSearch}&`}${run[1]}=${run[2]}` : randomSearch;
    let head = `${verb} ${target}${search} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n`;
    for (const [name, value] of fields) head += `${name}: ${value}\r\n`;
    if (bytes.length > 0 || verb === "POST") head += `Content-Length: ${bytes.length}\r\n`;
    return { method: verb, bytes: Buffer.concat([Buffer.from(`${head}\r\n`, "utf8"), bytes]), longRun: run !== undefined };
  });
