/**
 * `#/quiz?type=…&choices=…&count=…&difficulty=…&level=…&answer_format=typed&seed=…`: choose the
 * quiz and draw it in one metered call (`count`); the types that offer it can be answered by typing. "One quiz for the class" adds a seed to the link: everyone who opens it
 * gets the same questions, drawn without their answers (`reveal=0`) and graded by the server. The
 * drawn quiz stays in memory, so following an answer's link and coming Back resumes it.
 */
import { PUBLISHED_TYPES, QUIZ_TYPE_BY_NAME, QUIZ_TYPE_LIST, type Quiz, TYPED_TYPES } from "../../../runtime/core/quiz/types/index.ts";
import { type Described, type Quota, call, storedKey } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { type ReviewItem, dueItems } from "../review.ts";
import { type Problem, copyButton, errorBox, exhaustedBox, isProblem, loading, requestPanel, showQuota } from "../ui.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { type Session, newSession, showQuestion } from "./quizRun.ts";
import { reviewPanel } from "./reviewPanel.ts";
import { showWorksheet } from "./worksheet.ts";

interface QuizAnswer {
  quizzes?: Quiz[];
  quiz?: Quiz;
  quota?: { plan: string; remaining: number };
}

let session: Session | undefined;

/** A select of `values` labelled by `labels`, with `chosen` (else the first) selected. */
function select(name: string, values: readonly string[], labels: (value: string) => string, chosen: string | null): HTMLSelectElement {
  return h(
    "select",
    { name },
    values.map((value) => h("option", { value, selected: (chosen ?? values[0]) === value }, labels(value))),
  );
}

/** The quiz view. */
export async function quizView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const p = ctx.params;
  const names = QUIZ_TYPE_LIST.map(({ name }) => name);
  const type = select("type", ["", ...names], (name) => QUIZ_TYPE_LIST.find((q) => q.name === name)?.labels[lang()] ?? t().anyType, p.get("type"));
  const choices = select("choices", ["2", "3", "4", "5", "6"], (n) => n, p.get("choices") ?? "4");
  const count = h("input", { type: "number", name: "count", min: 1, max: 20, inputmode: "numeric", required: true, value: p.get("count") ?? "5" });
  const difficulty = select("difficulty", ["normal", "hard"], (d) => t().difficulties[d] ?? d, p.get("difficulty"));
  const level = select("level", ["education", "middle", "high", "name", "all"], (l) => t().levels[l] ?? l, p.get("level"));
  const answerFormat = select("answer_format", ["choices", "typed"], (f) => t().answerFormats[f] ?? f, p.get("answer_format"));
  const typedOption = answerFormat.querySelector<HTMLOptionElement>("option[value=typed]");
  // Typing is offered for the types that take it (Mixed draws those of them it may); choices do not apply to it.
  const syncTyped = () => {
    const offered = type.value === "" || (TYPED_TYPES as readonly string[]).includes(type.value);
    if (typedOption) typedOption.disabled = !offered;
    if (!offered) answerFormat.value = "choices";
    choices.disabled = answerFormat.value === "typed";
  };
  syncTyped();
  // A class's seed, from a shared link; changing a setting makes it another quiz, so the seed goes.
  let seed = /^\d{1,10}$/.test(p.get("seed") ?? "") ? Number(p.get("seed")) : undefined;
  const classBox = h("div", { class: "class-link" });
  // Not a live region: focus moves to each question, and the verdict is its own status message.
  const area = h("section", { class: "quiz-area" });
  const settingsNow = () => {
    const n = Math.min(20, Math.max(1, Math.trunc(Number(count.value)) || 5));
    count.value = String(n);
    const typed = answerFormat.value === "typed";
    // Defaults are left out, so a link names only what was chosen.
    return {
      type: type.value || undefined,
      choices: typed ? undefined : choices.value,
      count: n,
      difficulty: difficulty.value === "normal" ? undefined : difficulty.value,
      level: level.value === "education" ? undefined : level.value,
      answer_format: typed ? "typed" : undefined,
      seed,
    };
  };
  const begin = () => {
    const settings = settingsNow();
    const config = hashOf("/quiz", settings);
    // The choice is kept in the URL (shareable) without a new history entry or a re-render.
    history.replaceState(null, "", config);
    // The meanings come in the page's language; hanja and hangul are the same in both. A class's quiz hides its answers.
    const query = { ...settings, reveal: seed === undefined ? undefined : 0, lang: lang() === "en" ? "en" : undefined };
    void start(area, ctx, config, query, begin);
  };
  // A worksheet is drawn with its answers (for the answer key), in the same settings.
  const sheet = () =>
    void draw(area, ctx, { ...settingsNow(), lang: lang() === "en" ? "en" : undefined }).then((drawn) => drawn && showWorksheet(area, drawn.quizzes));
  const form = h(
    "form",
    {
      class: "quiz-form",
      onsubmit: (event: Event) => (event.preventDefault(), begin()),
      onchange: () => ((seed = undefined), syncTyped(), replace(classBox)),
    },
    h(
      "div",
      { class: "filters" },
      field(t().quizType, type),
      field(t().choices, choices),
      field(t().count, count),
      field(t().difficulty, difficulty),
      field(t().level, level, t().levelHint),
      field(
        t().answerFormat,
        answerFormat,
        t().answerFormatHint(typeLabels(TYPED_TYPES), typeLabels(PUBLISHED_TYPES.filter((name) => TYPED_TYPES.includes(name)))),
      ),
    ),
    h("p", { class: "hint" }, t().quizNote),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "primary" }, t().start),
      h("button", { type: "button", class: "for-sheet", onclick: sheet }, t().worksheetMake),
      h(
        "button",
        { type: "button", class: "for-class", onclick: () => ((seed = newSeed()), showClassLink(classBox, hashOf("/quiz", settingsNow()), true)) },
        t().classQuiz,
      ),
      // A class quiz of these settings, with the teacher's key: its students' results gathered for the teacher.
      h(
        "button",
        { type: "button", class: "for-results", onclick: () => ctx.go(hashOf("/class", { ...settingsNow(), seed: undefined })) },
        t().classMakeButton,
      ),
    ),
    classBox,
  );
  if (seed !== undefined) showClassLink(classBox, hashOf("/quiz", settingsNow()), false);
  // The settings fold away once a quiz runs, so that on a phone the question and every choice fit the screen.
  const settings = h("details", { class: "quiz-settings", open: true }, h("summary", {}, t().quizSettings), form);
  replace(
    main,
    h("h1", { tabindex: -1 }, t().quizTitle),
    settings,
    area,
    reviewPanel((items) => startReview(area, items)),
    h("section", { class: "note" }, h("h2", {}, t().classTitle), h("p", {}, t().classText)),
  );
  if (session && session.config === (location.hash || "#/quiz")) showQuestion(area, session);
}

/** The types' names in the page's language, comma-separated. */
function typeLabels(names: readonly (keyof typeof QUIZ_TYPE_BY_NAME)[]): string {
  return names.map((name) => QUIZ_TYPE_BY_NAME[name].labels[lang()]).join(", ");
}

/** A seed for a class's quiz (any of the API's 0 … 2³² − 1). */
function newSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
}

/** The class's link with a copy button (for the teacher who made it), or the note that this is one (for a student). */
function showClassLink(box: HTMLElement, hash: string, made: boolean): void {
  history.replaceState(null, "", hash);
  const url = `${location.origin}${location.pathname}${hash}`;
  replace(
    box,
    h("p", { role: "status" }, made ? t().classLinkMade : t().classLinkOpened),
    made ? h("p", { class: "copyable" }, h("code", {}, url), copyButton(url, t().classQuiz)) : null,
  );
}

/** Draws a quiz in one metered call, showing the quota; on a refusal shows why in `area` and gives nothing. */
async function draw(
  area: HTMLElement,
  ctx: ViewContext,
  query: Record<string, string | number | undefined>,
): Promise<{ quizzes: Quiz[]; request: Described } | undefined> {
  replace(area, loading());
  area.setAttribute("aria-busy", "true");
  try {
    const answer = await call<QuizAnswer | Problem>(`${ctx.bases.quiz}/quiz`, query, { keyed: true });
    const body = answer.body;
    showQuota(answer.quota, isProblem(body) ? (storedKey() ? "key" : "demo") : (body.quota?.plan ?? "demo"));
    if (answer.status === 429) return void replace(area, exhaustedBox(answer.quota), requestPanel(answer.request));
    if (isProblem(body)) {
      const keyLink = body.code?.startsWith("key_") || body.code === "invalid_key" ? h("p", {}, h("a", { href: "#/key" }, t().navKey)) : null;
      return void replace(area, errorBox(body), keyLink, requestPanel(answer.request));
    }
    return { quizzes: body.quizzes ?? (body.quiz ? [body.quiz] : []), request: answer.request };
  } catch (error) {
    replace(area, errorBox(error));
  } finally {
    area.removeAttribute("aria-busy");
  }
}

async function start(
  area: HTMLElement,
  ctx: ViewContext,
  config: string,
  query: Record<string, string | number | undefined>,
  again: () => void,
): Promise<void> {
  const drawn = await draw(area, ctx, query);
  if (!drawn) return;
  session = newSession({ config, ...drawn, quizBase: ctx.bases.quiz, restart: () => ((session = undefined), again()) });
  showQuestion(area, session);
  area.querySelector<HTMLElement>("legend")?.focus();
}

/** A quiz of the device's review list: no call, graded on the page. */
function startReview(area: HTMLElement, items: ReviewItem[]): void {
  const restart = () => startReview(area, dueItems());
  session = newSession({ config: location.hash || "#/quiz", quizzes: items.map((item) => item.quiz), quizBase: "", restart });
  showQuestion(area, session);
  area.querySelector<HTMLElement>("legend")?.focus();
}

/** The demo or key quota as `/me` reports it (not metered), for the quota line. */
export async function refreshQuota(ctx: { bases: { quiz: string } }): Promise<void> {
  try {
    const answer = await call<{ key?: { plan: string; daily_limit: number; remaining: number } } | Problem>(`${ctx.bases.quiz}/me`, {}, { keyed: true });
    const key = isProblem(answer.body) ? undefined : answer.body.key;
    if (key) showQuota({ limit: key.daily_limit, remaining: key.remaining } satisfies Quota, key.plan);
  } catch {
    // The quota line is a convenience: without it the views still work.
  }
}
