/**
 * `#/writing?set=…&count=…&sheet=…`: a writing-practice sheet (쓰기 연습) to print on A4. Each
 * character of the sheet: large in a box with guide lines (米자 칸), its 훈음 and readings, its strokes
 * drawn step by step (1..n, from `GET /hanja/{character}/strokes`, a note when the form is not Korean
 * or there are none), then a row of boxes holding it in light grey to trace and a row of empty boxes.
 *
 * The sets: `middle` and `high` (a school level's 900 characters in 가나다 order of their reading, as
 * textbooks list them, `count` a sheet and `sheet` which of them:
 * `/hanja?school_level=…&sort=reading&per_page=count&page=sheet`), `quiz` and `class`
 * (`chars`: a quiz's characters, from its result or a class quiz's results) and `review` (this
 * device's review list). Not metered: the lists, details and strokes are free calls.
 */
import type { HanjaDetail, HanjaRecord, HanjaStrokes } from "../../../runtime/format/records.ts";
import { call } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { reviewItems } from "../review.ts";
import { type Problem, errorBox, loading, ok } from "../ui.ts";
import type { Page } from "./characters.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { strokePaths } from "./strokes.ts";

const SVG = "http://www.w3.org/2000/svg";
/** The sets a sheet is made of. */
export const WRITING_SETS = ["middle", "high", "quiz", "class", "review"] as const;
type WritingSet = (typeof WRITING_SETS)[number];
/** Characters a sheet holds by default, and at most (the list's `per_page` maximum). */
const DEFAULT_COUNT = 20;
const MAX_COUNT = 50;
/** Boxes in each tracing and empty row (18 mm each on A4 within the page's margins). */
export const ROW_BOXES = 10;

/** A character on the sheet: what it says and its strokes, or why there are none. */
interface Entry {
  character: string;
  hunum: string[];
  readings: string[];
  definition: string | null;
  strokes: HanjaStrokes | "none" | "failed";
  /** False when the detail said there are no strokes (no request then); a list's record does not say. */
  hasStrokes?: boolean;
}

/** The Han characters of a text, in order. */
function hanOf(text: string): string[] {
  return text.match(/\p{Script=Han}/gu) ?? [];
}

/**
 * The characters a question practises: its idiom's four, else the character answered, else the Han
 * characters of its prompt and answer (a class quiz's results give only these).
 */
export function questionCharacters(question: {
  prompt: string;
  answer?: string;
  answer_character?: { character: string } | null;
  answer_idiom?: { hanja: string } | null;
}): string[] {
  if (question.answer_idiom) return hanOf(question.answer_idiom.hanja);
  if (question.answer_character) return [question.answer_character.character];
  return hanOf(`${question.prompt} ${question.answer ?? ""}`);
}

/** Distinct characters, first occurrence first. */
export function distinct(characters: readonly string[]): string[] {
  return [...new Set(characters)];
}

/** The link to a sheet of the given characters (a quiz's or a class quiz's). */
export function writingHash(set: "quiz" | "class", characters: readonly string[]): string {
  return hashOf("/writing", { set, chars: distinct(characters).join("") });
}

/** The characters of this device's review list (each question's, the list's order). */
function reviewCharacters(): string[] {
  return distinct(
    reviewItems().flatMap(({ quiz }) =>
      questionCharacters({ ...quiz, answer: quiz.choices.find((choice) => choice.key === quiz.answer)?.text ?? quiz.answer ?? "" }),
    ),
  );
}

function clampInt(text: string | null, min: number, max: number, fallback: number): number {
  const n = Math.trunc(Number(text));
  return Number.isFinite(n) && n >= min ? Math.min(n, max) : fallback;
}

/** The view: the sheet's settings (not printed) and the sheet. */
export async function writingView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const p = ctx.params;
  const set: WritingSet = (WRITING_SETS as readonly string[]).includes(p.get("set") ?? "") ? (p.get("set") as WritingSet) : "middle";
  const count = clampInt(p.get("count"), 1, MAX_COUNT, DEFAULT_COUNT);
  const chars = set === "review" ? reviewCharacters() : set === "quiz" || set === "class" ? distinct(hanOf(p.get("chars") ?? "")) : [];
  const level = set === "middle" || set === "high";
  const settings = h("div", { class: "no-print" });
  const sheetArea = h("div", { class: "writing-area" });
  replace(main, h("h1", { tabindex: -1 }, t().writingTitle), h("p", { class: "hint no-print" }, t().writingIntro), settings, sheetArea);
  replace(sheetArea, loading());
  let total = chars.length;
  let sheet = clampInt(p.get("sheet"), 1, 10_000, 1);
  let entries: Entry[];
  try {
    if (level) {
      const answer = ok(
        await call<Page<HanjaRecord> | Problem>(`${ctx.bases.hanja}/hanja`, { school_level: set, sort: "reading", per_page: count, page: sheet }),
      );
      total = answer.body.total;
      entries = await withStrokes(answer.body.data.map(entryOf), ctx.bases.hanja);
    } else {
      sheet = Math.min(sheet, Math.max(1, Math.ceil(total / count)));
      const shown = chars.slice((sheet - 1) * count, sheet * count);
      entries = await withStrokes(await Promise.all(shown.map((character) => detailOf(character, ctx.bases.hanja))), ctx.bases.hanja);
    }
  } catch (error) {
    if (ctx.current())
      replace(
        sheetArea,
        errorBox(error, () => void writingView(main, ctx)),
      );
    return;
  }
  if (!ctx.current()) return;
  const sheets = Math.max(1, Math.ceil(total / count));
  replace(settings, settingsForm(ctx, set, count, sheet, sheets, total, p.get("chars") ?? ""));
  if (entries.length === 0) {
    const text = set === "review" ? t().writingEmptyReview : level ? t().writingPastEnd(sheets) : t().writingEmptyQuiz;
    replace(
      sheetArea,
      h(
        "div",
        { class: "error writing-empty", role: "alert" },
        h("p", {}, text),
        set === "review" || !level ? h("p", {}, h("a", { href: "#/quiz" }, t().navQuiz)) : null,
      ),
    );
    return;
  }
  const first = (sheet - 1) * count + 1;
  replace(sheetArea, sheetOf(set, entries, first, total));
}

/** The settings: the set, how many characters a sheet holds and which sheet (its range). */
function settingsForm(ctx: ViewContext, set: WritingSet, count: number, sheet: number, sheets: number, total: number, chars: string): HTMLElement {
  const sets: WritingSet[] = ["middle", "high", "review", ...(set === "quiz" || set === "class" ? [set] : [])];
  const setSelect = h(
    "select",
    { name: "set" },
    sets.map((value) => h("option", { value, selected: value === set }, t().writingSets[value] ?? value)),
  );
  const countInput = h("input", { type: "number", name: "count", min: 1, max: MAX_COUNT, inputmode: "numeric", required: true, value: count });
  const sheetSelect = h(
    "select",
    { name: "sheet" },
    Array.from({ length: sheets }, (_, i) => {
      const from = i * count + 1;
      return h("option", { value: i + 1, selected: i + 1 === sheet }, t().writingRange(from, Math.min(total, from + count - 1), total));
    }),
  );
  const go = () => {
    const chosen = setSelect.value as WritingSet;
    const n = clampInt(countInput.value, 1, MAX_COUNT, DEFAULT_COUNT);
    const hash = hashOf("/writing", {
      set: chosen,
      chars: chosen === "quiz" || chosen === "class" ? chars : undefined,
      count: n === DEFAULT_COUNT ? undefined : n,
      // Another set or size starts from its first sheet.
      sheet: chosen === set && n === count && sheetSelect.value !== "1" ? sheetSelect.value : undefined,
    });
    // A control left as it was (a change event as the view is replaced) changes nothing.
    if (hash !== location.hash) ctx.go(hash);
  };
  for (const control of [setSelect, countInput, sheetSelect]) control.addEventListener("change", go);
  return h(
    "form",
    { class: "writing-form", onsubmit: (event: Event) => (event.preventDefault(), go()) },
    h(
      "div",
      { class: "filters" },
      field(t().writingSet, setSelect),
      field(t().writingCount, countInput, t().writingCountHint),
      field(t().writingSheet, sheetSelect),
    ),
    h("div", { class: "buttons" }, h("button", { type: "button", class: "primary", onclick: () => print() }, t().print)),
  );
}

function entryOf(record: HanjaRecord | HanjaDetail): Entry {
  return {
    character: record.character,
    hunum: record.hunum.map(({ hun, eum }) => `${hun} ${eum}`),
    readings: [record.reading, ...record.readings.filter((r) => r !== record.reading)],
    definition: record.definition_en,
    strokes: "none",
  };
}

/** A character's entry from its detail (a character the service does not know still gets its boxes). */
async function detailOf(character: string, base: string): Promise<Entry> {
  try {
    const detail = ok(await call<HanjaDetail | Problem>(`${base}/hanja/${encodeURIComponent(character)}`)).body;
    return { ...entryOf(detail), hasStrokes: detail.stroke_order !== null };
  } catch {
    return { character, hunum: [], readings: [], definition: null, strokes: "none", hasStrokes: false };
  }
}

/** The entries with their strokes: fetched together; a 404 is "none", any other failure "failed" (the sheet is made all the same). */
function withStrokes(entries: Entry[], base: string): Promise<Entry[]> {
  return Promise.all(
    entries.map(async (entry) => {
      if (entry.hasStrokes === false) return entry;
      try {
        const answer = await call<HanjaStrokes | Problem>(`${base}/hanja/${encodeURIComponent(entry.character)}/strokes`);
        return { ...entry, strokes: answer.status === 404 ? "none" : ok(answer).body };
      } catch {
        return { ...entry, strokes: "failed" };
      }
    }),
  );
}

/** The printed sheet: its title and range, the characters it holds, name and date, each character's block, the strokes' sources. */
function sheetOf(set: WritingSet, entries: Entry[], first: number, total: number): HTMLElement {
  const last = first + entries.length - 1;
  const sources = new Map<string, string>();
  for (const { strokes } of entries)
    if (typeof strokes === "object") sources.set(strokes.source.name, `${strokes.source.name} (${strokes.source.license}, ${strokes.source.url})`);
  return h(
    "div",
    { class: "writing-sheet" },
    h("h2", { tabindex: -1 }, `${t().writingTitle}: ${t().writingSets[set]} ${t().writingRange(first, last, total)}`),
    h(
      "p",
      { class: "writing-holds" },
      `${t().writingHolds(entries.length)} `,
      h("span", { lang: "ko", class: "writing-list" }, entries.map((e) => e.character).join(" ")),
    ),
    h("p", { class: "sheet-names" }, h("span", {}, `${t().nameLine}: `), h("span", {}, `${t().dateLine}: `)),
    entries.map(block),
    sources.size > 0 ? h("p", { class: "writing-sources hint" }, `${t().strokesSource} ${[...sources.values()].join("; ")}`) : null,
  );
}

/** The 米자 guide lines of a box (an SVG, printed as drawn: a background would not print). */
function guides(): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "guides");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("preserveAspectRatio", "none");
  for (const [x1, y1, x2, y2] of [
    [50, 0, 50, 100],
    [0, 50, 100, 50],
    [0, 0, 100, 100],
    [100, 0, 0, 100],
  ] as const) {
    const line = document.createElementNS(SVG, "line");
    for (const [name, value] of Object.entries({ x1, y1, x2, y2 })) line.setAttribute(name, String(value));
    svg.append(line);
  }
  return svg;
}

/** A box of the sheet: the character (model or traced), or empty. */
function box(kind: "model" | "trace" | "empty", character: string): HTMLElement {
  return h("span", { class: `write-box ${kind}` }, guides(), kind === "empty" ? null : h("span", { class: "write-glyph", lang: "ko" }, character));
}

/** Step `n` of the strokes: the strokes before it in grey, stroke n in black with a dot where it starts. */
function step(data: HanjaStrokes, n: number): HTMLElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 1024 1024");
  svg.setAttribute("aria-hidden", "true");
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("transform", "scale(1, -1) translate(0, -900)");
  for (const [i, path] of strokePaths(group, data.strokes.slice(0, n)).entries()) path.setAttribute("class", i === n - 1 ? "current" : "drawn");
  const start = data.strokes[n - 1]?.median[0];
  if (start) {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", String(start[0]));
    dot.setAttribute("cy", String(start[1]));
    dot.setAttribute("r", "38");
    dot.setAttribute("class", "start");
    group.append(dot);
  }
  svg.append(group);
  return h("li", { class: "write-step" }, svg, h("span", { class: "step-number" }, String(n)));
}

/** One character's block: never split across pages. */
function block(entry: Entry): HTMLElement {
  const { strokes } = entry;
  const total = typeof strokes === "object" ? strokes.strokes.length : 0;
  const note =
    strokes === "none"
      ? t().writingNoStrokes
      : strokes === "failed"
        ? t().writingStrokesFailed
        : strokes.form === "ko"
          ? null
          : strokes.form === "zh"
            ? t().strokesChinese
            : t().strokesJapanese;
  return h(
    "section",
    { class: "write-block", "data-character": entry.character, "aria-label": entry.character },
    h(
      "div",
      { class: "write-head" },
      box("model", entry.character),
      h(
        "div",
        { class: "write-info" },
        h("p", { class: "write-hunum", lang: "ko" }, entry.hunum.length > 0 ? entry.hunum.slice(0, 3).join(", ") : entry.readings.join(", ") || "—"),
        h(
          "p",
          { class: "write-facts" },
          entry.readings.length > 0 ? [`${t().writingReading}: `, h("span", { lang: "ko", class: "write-reading" }, entry.readings.join(", "))] : null,
          total > 0 ? ` · ${t().writingStrokes(total)}` : null,
          lang() === "en" && entry.definition ? [" · ", h("span", { class: "write-definition" }, entry.definition)] : null,
        ),
        note ? h("p", { class: "write-note" }, note) : null,
        typeof strokes === "object"
          ? h(
              "ol",
              { class: "write-steps", "aria-label": `${t().strokeOrder}: ${t().writingStrokes(total)}` },
              strokes.strokes.map((_, i) => step(strokes, i + 1)),
            )
          : null,
      ),
    ),
    h(
      "div",
      { class: "write-row traced", role: "img", "aria-label": t().writingTraceRow(ROW_BOXES) },
      Array.from({ length: ROW_BOXES }, () => box("trace", entry.character)),
    ),
    h(
      "div",
      { class: "write-row empty", role: "img", "aria-label": t().writingEmptyRow(ROW_BOXES) },
      Array.from({ length: ROW_BOXES }, () => box("empty", entry.character)),
    ),
  );
}
