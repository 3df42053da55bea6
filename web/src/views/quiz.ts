/**
 * `#/quiz?type=…&choices=…&count=…`: choose the quiz, draw it in one metered call (`count`), answer
 * each question, see right or wrong, the answer idiom and a running score. The drawn quiz stays
 * in memory, so following the answer idiom and coming Back resumes it.
 */
import { type Answer, type Quota, call, storedKey } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import type { Quiz } from "../../../runtime/core/docs/quizSchemas.ts";
import { QUIZ_TYPE_BY_NAME, QUIZ_TYPE_LIST } from "../../../runtime/core/quiz/types/index.ts";
import { type Lang, lang, t } from "../i18n.ts";
import { type Problem, errorBox, exhaustedBox, isProblem, loading, requestPanel, showQuota } from "../ui.ts";
import { type ViewContext, hashOf } from "./context.ts";

interface QuizAnswer {
  quizzes?: Quiz[];
  quiz?: Quiz;
  quota?: { plan: string; remaining: number };
}

/** The quiz being taken: its questions, which is shown, what was answered. */
interface Session {
  config: string;
  quizzes: Quiz[];
  index: number;
  chosen: (string | undefined)[];
  request: Answer<unknown>["request"];
}

let session: Session | undefined;

/** The quiz view. */
export async function quizView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const p = ctx.params;
  const type = h(
    "select",
    { name: "type" },
    h("option", { value: "" }, t().anyType),
    QUIZ_TYPE_LIST.map(({ name, labels }) => h("option", { value: name, selected: p.get("type") === name }, labels[lang()])),
  );
  const choices = h(
    "select",
    { name: "choices" },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: n, selected: (p.get("choices") ?? "4") === String(n) }, String(n))),
  );
  const count = h("input", { type: "number", name: "count", min: 1, max: 20, inputmode: "numeric", required: true, value: p.get("count") ?? "5" });
  // Not a live region: focus moves to each question, and the verdict is its own status message.
  const area = h("section", { class: "quiz-area" });
  const form = h(
    "form",
    {
      class: "quiz-form",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const n = Math.min(20, Math.max(1, Math.trunc(Number(count.value)) || 5));
        count.value = String(n);
        const config = hashOf("/quiz", { type: type.value, choices: choices.value, count: n });
        // The choice is kept in the URL (shareable) without a new history entry or a re-render.
        history.replaceState(null, "", config);
        // The meanings come in the page's language; hanja and hangul are the same in both.
        void start(area, ctx, config, { type: type.value || undefined, choices: choices.value, count: n, lang: lang() === "en" ? "en" : undefined });
      },
    },
    h("div", { class: "filters" }, field(t().quizType, type), field(t().choices, choices), field(t().count, count)),
    h("p", { class: "hint" }, t().quizNote),
    h("button", { type: "submit", class: "primary" }, t().start),
  );
  // The settings fold away once a quiz runs, so that on a phone the question and every choice fit the screen.
  const settings = h("details", { class: "quiz-settings", open: true }, h("summary", {}, t().quizSettings), form);
  replace(
    main,
    h("h1", { tabindex: -1 }, t().quizTitle),
    settings,
    area,
    h("section", { class: "note" }, h("h2", {}, t().classTitle), h("p", {}, t().classText)),
  );
  if (session && session.config === (location.hash || "#/quiz")) showQuestion(area, session);
}

/** Folds the settings away while a quiz runs (`running`) and opens them again when it ends. */
function running(area: HTMLElement, on: boolean): void {
  const main = area.closest("main");
  main?.classList.toggle("quizzing", on);
  const settings = main?.querySelector<HTMLDetailsElement>("details.quiz-settings");
  if (settings) settings.open = !on;
}

async function start(area: HTMLElement, ctx: ViewContext, config: string, query: Record<string, string | number | undefined>): Promise<void> {
  replace(area, loading());
  area.setAttribute("aria-busy", "true");
  try {
    const answer = await call<QuizAnswer | Problem>(`${ctx.bases.quiz}/quiz`, query, { keyed: true });
    const body = answer.body;
    showQuota(answer.quota, isProblem(body) ? (storedKey() ? "key" : "demo") : (body.quota?.plan ?? "demo"));
    if (answer.status === 429) return replace(area, exhaustedBox(answer.quota), requestPanel(answer.request));
    if (isProblem(body))
      return replace(
        area,
        errorBox(body),
        body.code?.startsWith("key_") || body.code === "invalid_key" ? h("p", {}, h("a", { href: "#/key" }, t().navKey)) : null,
        requestPanel(answer.request),
      );
    const quizzes = body.quizzes ?? (body.quiz ? [body.quiz] : []);
    session = { config, quizzes, index: 0, chosen: [], request: answer.request };
    showQuestion(area, session);
    area.querySelector<HTMLElement>("legend")?.focus();
  } catch (error) {
    replace(area, errorBox(error));
  } finally {
    area.removeAttribute("aria-busy");
  }
}

function score(s: Session): number {
  return s.chosen.filter((chosen, i) => chosen !== undefined && chosen === s.quizzes[i]?.answer).length;
}

function answered(s: Session): number {
  return s.chosen.filter((chosen) => chosen !== undefined).length;
}

/** Shows the current question, answered or not; after the last one the result. */
function showQuestion(area: HTMLElement, s: Session): void {
  const quiz = s.quizzes[s.index];
  running(area, quiz !== undefined);
  if (!quiz) {
    replace(
      area,
      h("h2", { tabindex: -1, class: "result" }, t().finished(score(s), s.quizzes.length)),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          onclick: () => ((session = undefined), area.closest("main")?.querySelector<HTMLElement>("form button[type=submit]")?.click()),
        },
        t().again,
      ),
      requestPanel(s.request),
    );
    area.querySelector<HTMLElement>("h2")?.focus();
    return;
  }
  const chosen = s.chosen[s.index];
  const done = chosen !== undefined;
  const buttons = quiz.choices.map((choice) =>
    h(
      "button",
      {
        type: "button",
        class: `choice${done && choice.key === quiz.answer ? " right" : ""}${done && choice.key === chosen && chosen !== quiz.answer ? " wrong" : ""}`,
        lang: shownLang(quiz, "options"),
        "aria-disabled": done ? "true" : undefined,
        onclick: () => {
          if (s.chosen[s.index] !== undefined) return;
          s.chosen[s.index] = choice.key;
          showQuestion(area, s);
          area.querySelector<HTMLElement>(".next")?.focus();
        },
      },
      h("span", { class: "choice-key", "aria-hidden": "true" }, choice.key),
      choice.text,
      done && choice.key === quiz.answer ? h("span", { class: "mark" }, " ✓") : null,
      done && choice.key === chosen && chosen !== quiz.answer ? h("span", { class: "mark" }, " ✗") : null,
    ),
  );
  const right = quiz.choices.find((choice) => choice.key === quiz.answer);
  const shows = QUIZ_TYPE_BY_NAME[quiz.type].shows;
  const last = s.index === s.quizzes.length - 1;
  replace(
    area,
    h("p", { class: "progress" }, t().question(s.index + 1, s.quizzes.length), " · ", h("span", { class: "score" }, t().score(score(s), answered(s)))),
    h(
      "fieldset",
      { class: "question" },
      h("legend", { tabindex: -1, lang: quizLang(quiz) }, quiz.question),
      // Classed by what they show (hanja, hangul, hunum, meaning): hanja are set large in the serif face.
      h("p", { class: `prompt ${quiz.type} ${shows.prompt}`, lang: shownLang(quiz, "prompt") }, quiz.prompt),
      h("div", { class: `choices ${shows.options}` }, buttons),
    ),
    done
      ? h(
          "div",
          { class: `feedback ${chosen === quiz.answer ? "is-right" : "is-wrong"}`, role: "status" },
          h("p", { class: "verdict" }, chosen === quiz.answer ? t().correct : t().wrong(`${quiz.answer}. ${right?.text ?? ""}`)),
          answerLine(quiz),
          h(
            "button",
            {
              type: "button",
              class: "primary next",
              onclick: () => (s.index++, showQuestion(area, s), area.querySelector<HTMLElement>("legend, h2")?.focus()),
            },
            last ? t().finish : t().nextQuestion,
          ),
        )
      : null,
    requestPanel(s.request),
  );
}

/** The answer after a question: the idiom (idiom types, `idiom_blank`), else the character, each linked to its page. */
function answerLine(quiz: Quiz): HTMLElement {
  const idiom = quiz.answer_idiom;
  const character = quiz.answer_character;
  const meaning = idiom
    ? quizLang(quiz) === "en" && idiom.meaning_en
      ? h("span", { lang: "en" }, idiom.meaning_en)
      : idiom.meaning
    : character?.hunum.join(", ");
  const link = idiom
    ? h("a", { href: hashOf(`/idiom/${encodeURIComponent(idiom.hanja)}`) }, `${idiom.hanja} (${idiom.hangul})`)
    : h(
        "a",
        { href: hashOf(`/hanja/${encodeURIComponent(character?.character ?? "")}`) },
        `${character?.character ?? ""} (${character?.readings.join(", ") ?? ""})`,
      );
  return h("p", { class: "answer-idiom", lang: "ko" }, h("span", { class: "label", lang: langAttr() }, `${t().answerIdiom}: `), link, " — ", meaning ?? "");
}

/** The language a quiz was drawn in: English when its instruction is (`lang=en`). */
function quizLang(quiz: Quiz): Lang {
  return quiz.question === QUIZ_TYPE_BY_NAME[quiz.type].question.en ? "en" : "ko";
}

/** The language of a quiz's prompt or options: the quiz's for meanings, Korean for hanja and hangul. */
function shownLang(quiz: Quiz, part: "prompt" | "options"): Lang {
  return QUIZ_TYPE_BY_NAME[quiz.type].shows[part] === "meaning" ? quizLang(quiz) : "ko";
}

function langAttr(): Lang {
  return document.documentElement.lang === "en" ? "en" : "ko";
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
