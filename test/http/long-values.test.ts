/**
 * A long run of spaces or punctuation in any string parameter is answered as fast as a short one:
 * the bound on the value as sent applies before any pattern, and trimming is one pass. Every string
 * parameter of every route is tried, read from /openapi.json, which is derived from the routes'
 * parameter specs: a parameter added to a spec is covered without an edit here.
 */
import { describe, expect, it } from "vitest";
import { RAW_TEXT_FACTOR, trimQuery } from "../../runtime/core/http/params.ts";
import { HANJA_LIST_PARAMS, IDIOMS_LIST_PARAMS } from "../../runtime/core/routes/hanjaParams.ts";
import { SEARCH_PARAMS } from "../../runtime/core/routes/quizParams.ts";
import { call, getJson, testApp } from "../helpers/app.ts";

const ADMIN = "long-values-admin-token-0123456789";
const app = testApp({ adminToken: ADMIN });

interface Parameter {
  name: string;
  in: string;
  schema: { type: string };
}
type Operation = { parameters?: (Parameter | { $ref: string })[] };

/** Every string parameter of every GET operation: path, `in` and name. */
async function stringParameters(): Promise<{ path: string; in: string; name: string }[]> {
  const { body } = await getJson(app, "/openapi.json");
  const components = body.components.parameters as Record<string, Parameter>;
  const out: { path: string; in: string; name: string }[] = [];
  for (const [path, item] of Object.entries(body.paths as Record<string, { get?: Operation }>)) {
    for (const entry of item.get?.parameters ?? []) {
      const parameter = "$ref" in entry ? components[entry.$ref.split("/").pop() as string] : entry;
      if (parameter?.schema.type === "string") out.push({ path, in: parameter.in, name: parameter.name });
    }
  }
  return out;
}

/** The request target with `value` given to the parameter (other path parameters filled with a valid value). */
function target({ path, in: where, name }: { path: string; in: string; name: string }, value: string): string {
  const encoded = encodeURIComponent(value);
  const filled = path.replace(/\{([^{}]+)\}/g, (_, param: string) => (param === name ? encoded : param === "character" ? "%E6%B0%B4" : "1"));
  return where === "query" ? `${filled}?${name}=${encoded}` : filled;
}

/** Median milliseconds of `runs` answers to `path` (each from its own address: the demo quota is not what is measured). */
async function medianMs(path: string, runs: number, statuses: Set<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const response = await call(app, path, { headers: { authorization: `Bearer ${ADMIN}` }, clientAddress: `10.0.${i >> 8}.${i & 255}` });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    statuses.add(response.status);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
}

/** Runs that fit a request target every runtime takes (16 KiB on Node): `。` is nine bytes percent-encoded. */
const RUNS = [
  "!".repeat(15_000),
  `a${"!".repeat(15_000)}b`,
  ` ${"-".repeat(15_000)}水`,
  `${"(".repeat(7_500)}水${")".repeat(7_500)}`,
  `水${"。".repeat(1_700)}`,
];

describe("a 15,000-character run of punctuation", () => {
  it("in every string parameter of every route: the documented 400 or a 200, as fast as a short value (50×)", { timeout: 60_000 }, async () => {
    const parameters = await stringParameters();
    // Every text parameter of the specs is among them.
    for (const route of ["/hanja/v1/hanja", "/hanja/v1/idioms", "/quiz/v1/search"]) expect(parameters).toContainEqual({ path: route, in: "query", name: "q" });
    expect(parameters.length).toBeGreaterThan(5);
    const slow: string[] = [];
    for (const parameter of parameters) {
      const statuses = new Set<number>();
      // Warm: the first answers of a route build what it caches.
      await medianMs(target(parameter, "a!b"), 3, new Set());
      const short = await medianMs(target(parameter, "a!!!b"), 7, statuses);
      for (const run of RUNS) {
        const long = await medianMs(target(parameter, run), 5, statuses);
        if (long > 50 * Math.max(short, 0.05)) slow.push(`${parameter.path} ${parameter.name}: ${long.toFixed(2)} ms, a short value ${short.toFixed(2)} ms`);
        const { status, body } = await getJson(app, target(parameter, run), { headers: { authorization: `Bearer ${ADMIN}` }, clientAddress: "10.1.0.1" });
        expect([200, 400, 404], `${parameter.path} ${parameter.name}`).toContain(status);
        if (status === 400) expect(body.param, `${parameter.path} ${parameter.name}`).toBe(parameter.name);
      }
      expect([...statuses].every((s) => s < 500)).toBe(true);
    }
    expect(slow).toEqual([]);
  });

  it("in a text parameter is a 400 naming it and both bounds, before it is trimmed", async () => {
    for (const [route, limit] of [
      ["/hanja/v1/hanja", HANJA_LIST_PARAMS.q.maxLength],
      ["/hanja/v1/idioms", IDIOMS_LIST_PARAMS.q.maxLength],
      ["/quiz/v1/search", SEARCH_PARAMS.q.maxLength],
    ] as const) {
      const raw = limit * RAW_TEXT_FACTOR;
      const { status, body } = await getJson(app, `${route}?q=${encodeURIComponent(`a${"!".repeat(raw)}b`)}`);
      expect(status).toBe(400);
      expect(body.param).toBe("q");
      expect(body.detail).toBe(`q is longer than ${raw} characters as sent; the limit is ${limit} after trimming the spaces and punctuation around it`);
    }
  });

  it("leaves room as sent for a query at the limit with spaces and punctuation around it, and for one sent as conjoining jamo", async () => {
    const limit = HANJA_LIST_PARAMS.q.maxLength;
    const raw = limit * RAW_TEXT_FACTOR;
    const atLimit = "水".repeat(limit);
    const padded = `${" ".repeat((raw - limit) / 2)}“${atLimit}”${".".repeat((raw - limit) / 2 - 2)}`;
    expect([...padded]).toHaveLength(raw);
    expect((await call(app, `/hanja/v1/hanja?q=${encodeURIComponent(padded)}`)).status).toBe(200);
    expect((await call(app, `/hanja/v1/hanja?q=${encodeURIComponent(`${padded}.`)}`)).status).toBe(400);
    // 80 syllables typed as jamo (가 is ᄀ + ᅡ: two code points; 각 is three) are 240 code points as sent.
    const jamo = "각".normalize("NFD").repeat(limit);
    expect([...jamo]).toHaveLength(3 * limit);
    expect((await call(app, `/hanja/v1/idioms?q=${encodeURIComponent(` ${jamo} `)}`)).status).toBe(200);
    expect(trimQuery(` ${jamo} `)).toBe(jamo);
  });
});
