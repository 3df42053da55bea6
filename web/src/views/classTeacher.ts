/**
 * The teacher's side of class quizzes (docs/api.md "Class quizzes"), with the teacher's API key
 * (kept in this tab's sessionStorage, sent in `X-API-Key`, never in a link):
 * - `#/class?type=…&count=…` (the quiz view's settings): make a class quiz of them, with a title,
 *   the hours it stays open and the most students (`POST /classes`, one metered call); and the
 *   key's class quizzes (`GET /classes`), each to reopen.
 * - `#/class?code=cq_…`: one class quiz: the students' link with a copy button, and its results
 *   (`GET /classes/{code}/results`, not metered), read again every few seconds while the page is
 *   shown and the class quiz open, the most-missed questions first, each student's score.
 */
import { QUIZ_TYPE_BY_NAME } from "../../../runtime/core/quiz/types/index.ts";
import type { ClassSummaryView } from "../../../runtime/format/classSchemas.ts";
import { type Answer, call, storeKey, storedKey } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { type Problem, copyButton, errorBox, isProblem, loading, showQuota } from "../ui.ts";
import { when } from "./classStudent.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { refreshQuota } from "./quiz.ts";
import { questionCharacters, writingHash } from "./writing.ts";

/** How often the results are read again while they are shown. */
export const POLL_MS = 4000;
const KEY_SHAPE = /^hj_[0-9A-Za-z]{32}$/;
/** The settings of the quiz view a class quiz takes (`lang` is the page's). */
const SETTINGS = ["type", "count", "choices", "difficulty", "level", "answer_format"] as const;

interface Results {
  class: ClassSummaryView;
  settings: { type: string[]; lang: "ko" | "en"; answer_format: string };
  students: { name: string; score: number; submitted_at: string; answers: { given: string; correct: boolean }[] }[];
  questions: { number: number; type: string; prompt: string; answer: string; right: number; answered: number; share_right: number | null }[];
}

/** Bumped by each results view: a poll of an earlier one stops at its next turn. */
let polls = 0;

/** The teacher's view: without a key, the key's field; with a code, that class quiz's results; else the maker and the list. */
export function classTeacherView(main: HTMLElement, ctx: ViewContext): void {
  polls++;
  const code = ctx.params.get("code");
  if (!storedKey()) {
    keyGate(main, ctx);
    return;
  }
  // The quota line shows the key's (a key entered here replaces the demo's).
  void refreshQuota(ctx);
  if (code) resultsView(main, ctx, code);
  else makerView(main, ctx);
}

/** The teacher's problem in the page's language. */
function teacherProblem(answer: Answer<unknown>): Problem {
  const problem = answer.body as Problem;
  const text =
    answer.status === 401
      ? t().classBadKey
      : problem.code === "class_limit"
        ? t().classLimit
        : problem.code === "quota_exceeded"
          ? t().classKeyQuota
          : problem.code === "forbidden"
            ? t().classForbidden
            : answer.status === 404
              ? t().classGone
              : undefined;
  return { ...problem, detail: text ?? problem.detail };
}

/** An error box for a refused call; a refused key offers to enter another. */
function refusal(ctx: ViewContext, answer: Answer<unknown>): HTMLElement {
  const box = errorBox(teacherProblem(answer));
  if (answer.status === 401) box.append(h("button", { type: "button", onclick: () => (storeKey(undefined), ctx.go(location.hash)) }, t().classKeyOther));
  return box;
}

/** The key's field: a key entered here is kept in this tab only. */
function keyGate(main: HTMLElement, ctx: ViewContext): void {
  const error = h("span", { class: "field-error", id: "class-key-error" });
  const input = h("input", { type: "password", id: "class-key", name: "api_key", autocomplete: "off", spellcheck: "false" });
  const form = h(
    "form",
    {
      class: "key-form",
      novalidate: true,
      onsubmit: (event: Event) => {
        event.preventDefault();
        const key = input.value.trim();
        if (!KEY_SHAPE.test(key)) {
          input.setAttribute("aria-invalid", "true");
          replace(error, t().keyBadFormat);
          input.focus();
          return;
        }
        storeKey(key);
        ctx.go(location.hash || "#/class");
      },
    },
    field(t().keyField, input, t().classKeyNeeded),
    error,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, t().classKeyUse)),
  );
  input.setAttribute("aria-describedby", `${input.id}-hint class-key-error`);
  replace(main, h("h1", { tabindex: -1 }, t().classTeacherTitle), intro(), form);
}

function intro(): HTMLElement {
  return h("section", { class: "note" }, h("p", {}, t().classTeacherIntro), h("p", {}, t().classMetering));
}

/** Make a class quiz of the quiz view's settings; the key's class quizzes below. */
function makerView(main: HTMLElement, ctx: ViewContext): void {
  const p = ctx.params;
  const settings = Object.fromEntries(SETTINGS.map((name) => [name, p.get(name) ?? undefined]));
  const typed = settings.answer_format === "typed";
  const typeName = settings.type ?? "";
  const typeLabel = typeName ? (QUIZ_TYPE_BY_NAME[typeName as keyof typeof QUIZ_TYPE_BY_NAME]?.labels[lang()] ?? typeName) : t().anyType;
  const count = settings.count ?? "5";
  const inputs = {
    title: h("input", { type: "text", name: "title", maxlength: 60, autocomplete: "off" }),
    open_hours: h("input", { type: "number", name: "open_hours", min: 1, max: 720, inputmode: "numeric", value: "168" }),
    students_max: h("input", { type: "number", name: "students_max", min: 1, inputmode: "numeric", value: "40" }),
  };
  const outcome = h("div", { class: "outcome" });
  const button = h("button", { type: "submit", class: "primary" }, t().classMake);
  let busy = false;
  const make = async () => {
    if (busy) return;
    busy = true;
    button.setAttribute("aria-disabled", "true");
    for (const input of Object.values(inputs)) input.removeAttribute("aria-invalid");
    replace(outcome, loading());
    // A number the field cannot read is sent as typed, so the service names the field.
    const number = (input: HTMLInputElement) => (input.value.trim() !== "" && Number.isSafeInteger(Number(input.value)) ? Number(input.value) : input.value);
    const json = {
      type: typeName || undefined,
      count: Number(count) || count,
      choices: typed || !settings.choices ? undefined : Number(settings.choices),
      difficulty: settings.difficulty,
      level: settings.level,
      answer_format: settings.answer_format,
      lang: lang(),
      title: inputs.title.value.trim() || undefined,
      open_hours: number(inputs.open_hours),
      students_max: number(inputs.students_max),
    };
    try {
      const answer = await call<{ class: ClassSummaryView; quota?: { plan: string } } | Problem>(
        `${ctx.bases.quiz}/classes`,
        {},
        {
          method: "POST",
          json,
          keyed: true,
        },
      );
      const body = answer.body;
      showQuota(answer.quota, isProblem(body) ? "key" : (body.quota?.plan ?? "key"));
      if (isProblem(body)) {
        replace(outcome, refusal(ctx, answer));
        const input = inputs[body.param as keyof typeof inputs];
        if (input) {
          input.setAttribute("aria-invalid", "true");
          input.focus();
        }
        return;
      }
      ctx.go(hashOf("/class", { code: body.class.code }));
    } catch (error) {
      replace(outcome, errorBox(error));
    } finally {
      busy = false;
      button.removeAttribute("aria-disabled");
    }
  };
  const list = h("section", { class: "class-list", "aria-labelledby": "class-mine" }, h("h2", { id: "class-mine" }, t().classMine), loading());
  replace(
    main,
    h("h1", { tabindex: -1 }, t().classTeacherTitle),
    intro(),
    h("p", {}, t().classKeyInUse, " ", h("a", { href: "#/key" }, t().classKeyOther)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t().quizType),
      h("dd", {}, typeLabel),
      h("dt", {}, t().classSettingsShown),
      h("dd", {}, count),
      h("dt", {}, t().answerFormat),
      h("dd", {}, typed ? t().answerFormats.typed : `${t().answerFormats.choices} (${settings.choices ?? "4"})`),
      h("dt", {}, t().difficulty),
      h("dd", {}, t().difficulties[settings.difficulty ?? "normal"] ?? ""),
      h("dt", {}, t().level),
      h("dd", {}, t().levels[settings.level ?? "education"] ?? ""),
    ),
    h("p", {}, h("a", { href: hashOf("/quiz", settings) }, t().classSettingsChange)),
    h(
      "form",
      { class: "class-make", novalidate: true, onsubmit: (event: Event) => (event.preventDefault(), void make()) },
      h(
        "div",
        { class: "filters" },
        field(t().classTitleField, inputs.title, t().classTitleHint),
        field(t().classHours, inputs.open_hours, t().classHoursHint),
        field(t().classStudentsMax, inputs.students_max),
      ),
      h("div", { class: "buttons" }, button),
      outcome,
    ),
    list,
  );
  void showList(list, ctx);
}

/** The key's class quizzes, newest first, each linked to its results. */
async function showList(list: HTMLElement, ctx: ViewContext): Promise<void> {
  const heading = list.querySelector("h2");
  try {
    const answer = await call<{ classes: ClassSummaryView[] } | Problem>(`${ctx.bases.quiz}/classes`, {}, { keyed: true });
    if (!ctx.current()) return;
    const body = answer.body;
    if (isProblem(body)) return replace(list, heading, refusal(ctx, answer));
    const now = new Date().toISOString();
    replace(
      list,
      heading,
      body.classes.length === 0
        ? h("p", {}, t().classNone)
        : h(
            "ul",
            { class: "idioms class-quizzes" },
            body.classes.map((one) =>
              h(
                "li",
                {},
                h("a", { href: hashOf("/class", { code: one.code }) }, one.title || t().classUntitled),
                h("p", { class: "hint" }, t().classListLine(one.students, one.students_max, one.closes_at <= now ? t().classClosed : when(one.closes_at))),
              ),
            ),
          ),
    );
  } catch (error) {
    if (ctx.current()) replace(list, heading, errorBox(error));
  }
}

/** One class quiz: its link, and its results read again every few seconds while shown and open. */
function resultsView(main: HTMLElement, ctx: ViewContext, code: string): void {
  const mine = polls;
  const heading = h("h1", { tabindex: -1 }, t().classTeacherTitle);
  const top = h("div", { class: "class-top" });
  const count = h("p", { class: "class-count", "aria-live": "polite" });
  const tables = h("div", { class: "class-results" }, loading());
  const problem = h("div", {});
  replace(
    main,
    heading,
    top,
    h(
      "section",
      { class: "results", "aria-labelledby": "class-results-title" },
      h("h2", { id: "class-results-title" }, t().classResults),
      count,
      problem,
      tables,
    ),
    h("p", {}, h("a", { href: "#/class" }, t().classAll)),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let shown = "";
  let open = true;
  const alive = () => mine === polls && ctx.current();
  const hidden = () => document.visibilityState === "hidden";
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
    document.removeEventListener("visibilitychange", onVisibility);
  };
  const read = async () => {
    timer = undefined;
    if (!alive()) return stop();
    // A hidden page reads nothing; showing it again reads at once (below).
    if (hidden() || reading) return;
    reading = true;
    let answer: Answer<Results | Problem> | undefined;
    try {
      answer = await call<Results | Problem>(`${ctx.bases.quiz}/classes/${encodeURIComponent(code)}/results`, {}, { keyed: true });
    } catch (error) {
      // The connection may come back: the next turn reads again.
      if (alive()) replace(problem, errorBox(error));
    } finally {
      reading = false;
    }
    if (!alive()) return stop();
    if (answer) {
      const body = answer.body;
      if (isProblem(body)) {
        replace(problem, refusal(ctx, answer));
        replace(tables);
        return stop();
      }
      replace(problem);
      const text = JSON.stringify(body);
      if (text !== shown) {
        if (shown === "") showTop(heading, top, body.class);
        shown = text;
        showResults(count, tables, body);
      }
      open = body.class.closes_at > new Date().toISOString();
    }
    if (open && !hidden()) timer = setTimeout(() => void read(), POLL_MS);
  };
  const onVisibility = () => {
    if (!alive()) return stop();
    if (hidden()) {
      clearTimeout(timer);
      timer = undefined;
    } else if (open && timer === undefined) void read();
  };
  document.addEventListener("visibilitychange", onVisibility);
  void read();
}

/** The title, the students' link with a copy button, and the class quiz's times. */
function showTop(heading: HTMLElement, top: HTMLElement, summary: ClassSummaryView): void {
  heading.textContent = summary.title || t().classUntitled;
  document.title = `${heading.textContent} · ${t().title}`;
  const url = new URL(summary.link, location.origin).href;
  const closed = summary.closes_at <= new Date().toISOString();
  replace(
    top,
    h("p", {}, t().classLinkGive),
    h("p", { class: "copyable" }, h("code", { class: "class-url" }, url), copyButton(url, t().classLinkName)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t().classCloses),
      h("dd", {}, closed ? `${when(summary.closes_at)} (${t().classClosed})` : when(summary.closes_at)),
      h("dt", {}, t().classKept),
      h("dd", {}, when(summary.results_until)),
    ),
  );
}

/** The results: how many submitted, the questions most missed first, each student's score. */
function showResults(count: HTMLElement, tables: HTMLElement, results: Results): void {
  const { class: summary, settings } = results;
  const text = `${t().classSubmitted(summary.students, summary.students_max)} ${t().classPolling}`;
  if (count.textContent !== text) count.textContent = text;
  const shownLang = (type: string, part: "prompt" | "options") =>
    QUIZ_TYPE_BY_NAME[type as keyof typeof QUIZ_TYPE_BY_NAME]?.shows[part] === "meaning" ? settings.lang : "ko";
  // Most missed first: the lowest share right, then in question order; none answered yet, in order.
  const questions = [...results.questions].sort((a, b) => (a.share_right ?? 101) - (b.share_right ?? 101) || a.number - b.number);
  const cell = (text: string, attrs: Record<string, string> = {}) => h("td", attrs, text);
  const table = (id: string, title: string, head: string[], rows: HTMLElement[]) => [
    h("h3", { id }, title),
    h(
      "table",
      { class: "class-table", "aria-labelledby": id },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map((name) => h("th", { scope: "col" }, name)),
        ),
      ),
      h("tbody", {}, rows),
    ),
  ];
  // The class quiz's characters, in question order, for a writing sheet.
  const characters = results.questions.flatMap((q) => questionCharacters(q));
  replace(
    tables,
    characters.length > 0 ? h("p", {}, h("a", { href: writingHash("class", characters), class: "button for-writing" }, t().writingOfQuiz)) : null,
    table(
      "class-missed",
      t().classMissed,
      [t().colNumber, t().colQuestion, t().colAnswer, t().colRight],
      questions.map((q) =>
        h(
          "tr",
          { class: q.share_right !== null && q.share_right < 50 ? "missed" : "" },
          cell(String(q.number)),
          cell(q.prompt, {
            class: `table-prompt ${QUIZ_TYPE_BY_NAME[q.type as keyof typeof QUIZ_TYPE_BY_NAME]?.shows.prompt ?? ""}`,
            lang: shownLang(q.type, "prompt"),
          }),
          cell(q.answer, { lang: shownLang(q.type, "options") }),
          cell(q.share_right === null ? "—" : `${q.share_right}% (${q.right}/${q.answered})`),
        ),
      ),
    ),
    results.students.length === 0
      ? null
      : table(
          "class-students",
          t().classStudents,
          [t().colName, t().colScore, t().colSubmitted, t().colMissed],
          results.students.map((student) => {
            const missed = student.answers.flatMap((answer, i) => (answer.correct ? [] : [i + 1]));
            return h(
              "tr",
              {},
              cell(student.name),
              cell(`${student.score} / ${student.answers.length}`),
              cell(when(student.submitted_at)),
              cell(missed.length === 0 ? "—" : missed.join(", ")),
            );
          }),
        ),
  );
}
