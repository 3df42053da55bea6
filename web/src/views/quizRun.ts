/**
 * A drawn quiz being taken: each question, graded on the page when the answers came with it, or by
 * `POST /grade` when they were hidden (`reveal=0`, a class's quiz); at the end the mistakes with
 * their right answers, and the wrong ones asked again.
 */
import { QUIZ_TYPE_BY_NAME, type Quiz } from "../../../runtime/core/quiz/types/index.ts";
import { type Answer, call } from "../api.ts";
import { type Child, h, replace } from "../dom.ts";
import { type Lang, t } from "../i18n.ts";
import { recordAnswer } from "../review.ts";
import { type Problem, errorBox, isProblem, requestPanel } from "../ui.ts";
import { hashOf } from "./context.ts";

/** An answer graded: right or not, and the right answer with what it stands for. */
export interface Graded {
  correct: boolean;
  answer: string;
  answer_idiom?: Quiz["answer_idiom"];
  answer_character?: Quiz["answer_character"];
}

/** The quiz being taken: its questions, which is shown, what was answered and how it was graded. */
export interface Session {
  config: string;
  quizzes: Quiz[];
  index: number;
  chosen: (string | undefined)[];
  graded: (Graded | undefined)[];
  /** The call that drew it (none for a review of this device's list). */
  request?: Answer<unknown>["request"];
  /** Where `POST /grade` is, for quizzes drawn without their answers. */
  quizBase: string;
  /** Starts the same quiz again (the settings' Start). */
  restart(): void;
}

/** A new session of the given quizzes. */
export function newSession(fields: Omit<Session, "index" | "chosen" | "graded">): Session {
  return { ...fields, index: 0, chosen: [], graded: [] };
}

function score(s: Session): number {
  return s.graded.filter((graded) => graded?.correct).length;
}

/** Grades an answer: on the page when the quiz carries its answer, else by `POST /grade` (not metered). */
async function grade(s: Session, quiz: Quiz, key: string): Promise<Graded> {
  if (quiz.answer !== undefined) {
    return { correct: key === quiz.answer, answer: quiz.answer, answer_idiom: quiz.answer_idiom, answer_character: quiz.answer_character };
  }
  const answer = await call<{ result: Graded } | Problem>(`${s.quizBase}/grade`, {}, { method: "POST", json: { quiz_id: quiz.quiz_id, answer: key } });
  if (isProblem(answer.body)) throw answer.body;
  return answer.body.result;
}

/** Folds the settings away while a quiz runs and opens them again when it ends. */
function running(area: HTMLElement, on: boolean): void {
  const main = area.closest("main");
  document.body.classList.toggle("quizzing", on);
  const settings = main?.querySelector<HTMLDetailsElement>("details.quiz-settings");
  if (settings) settings.open = !on;
}

/** Shows the current question, answered or not; after the last one the result. */
export function showQuestion(area: HTMLElement, s: Session): void {
  const quiz = s.quizzes[s.index];
  running(area, quiz !== undefined);
  if (!quiz) {
    showResult(area, s);
    return;
  }
  const chosen = s.chosen[s.index];
  const graded = s.graded[s.index];
  const shows = QUIZ_TYPE_BY_NAME[quiz.type].shows;
  const mark = (key: string) => (graded && key === graded.answer ? "right" : graded && key === chosen && !graded.correct ? "wrong" : "");
  const buttons = quiz.choices.map((choice) =>
    h(
      "button",
      {
        type: "button",
        class: `choice ${mark(choice.key)}`,
        lang: shownLang(quiz, "options"),
        "aria-disabled": chosen !== undefined ? "true" : undefined,
        onclick: () => void choose(area, s, quiz, choice.key),
      },
      h("span", { class: "choice-key", "aria-hidden": "true" }, choice.key),
      choice.text,
      mark(choice.key) === "right" ? h("span", { class: "mark" }, " ✓") : null,
      mark(choice.key) === "wrong" ? h("span", { class: "mark" }, " ✗") : null,
    ),
  );
  const right = quiz.choices.find((choice) => choice.key === graded?.answer);
  const last = s.index === s.quizzes.length - 1;
  replace(
    area,
    h("p", { class: "progress" }, t().question(s.index + 1, s.quizzes.length), " · ", h("span", { class: "score" }, t().score(score(s), answeredCount(s)))),
    h(
      "fieldset",
      { class: "question" },
      h("legend", { tabindex: -1, lang: quizLang(quiz) }, quiz.question),
      // Classed by what they show (hanja, hangul, hunum, meaning): hanja are set large in the serif face.
      h("p", { class: `prompt ${quiz.type} ${shows.prompt}`, lang: shownLang(quiz, "prompt") }, quiz.prompt),
      h("div", { class: `choices ${shows.options}` }, buttons),
    ),
    graded
      ? h(
          "div",
          { class: `feedback ${graded.correct ? "is-right" : "is-wrong"}`, role: "status" },
          h("p", { class: "verdict" }, graded.correct ? t().correct : t().wrong(`${graded.answer}. ${right?.text ?? ""}`)),
          answerLine(quiz, graded),
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
    s.request ? requestPanel(s.request) : null,
  );
  // On a phone the question is brought to the top (its fonts may still be loading, so it is not measured), so that its every choice shows without the learner scrolling.
  if (!graded && matchMedia("(max-width: 40rem)").matches) area.scrollIntoView({ block: "start" });
}

function answeredCount(s: Session): number {
  return s.graded.filter((graded) => graded !== undefined).length;
}

/** Records the choice, grades it and shows the verdict; a failed grading can be tried again. */
async function choose(area: HTMLElement, s: Session, quiz: Quiz, key: string): Promise<void> {
  const index = s.index;
  if (s.chosen[index] !== undefined) return;
  s.chosen[index] = key;
  showQuestion(area, s);
  try {
    const graded = await grade(s, quiz, key);
    s.graded[index] = graded;
    // The device's review list (opt-in) keeps a miss and reschedules a question it holds.
    recordAnswer({ ...quiz, answer: graded.answer, answer_idiom: graded.answer_idiom, answer_character: graded.answer_character }, graded.correct);
  } catch (error) {
    s.chosen[index] = undefined;
    area.querySelector(".question")?.after(errorBox(error));
    return;
  }
  if (s.index !== index) return;
  showQuestion(area, s);
  area.querySelector<HTMLElement>(".next")?.focus();
}

/** The score, every mistake with the right answer, "retry the wrong ones" and a new quiz. */
function showResult(area: HTMLElement, s: Session): void {
  const wrong = s.quizzes.flatMap((quiz, i) => {
    const graded = s.graded[i];
    return graded && !graded.correct ? [{ quiz, graded, chosen: s.chosen[i] ?? "" }] : [];
  });
  const text = (quiz: Quiz, key: string) => quiz.choices.find((choice) => choice.key === key)?.text ?? key;
  const retry = () => {
    // Asked again with the answers now known: graded on the page, no call.
    const quizzes = wrong.map(({ quiz, graded }) => ({
      ...quiz,
      answer: graded.answer,
      answer_idiom: graded.answer_idiom,
      answer_character: graded.answer_character,
    }));
    Object.assign(s, newSession({ ...s, quizzes }));
    showQuestion(area, s);
    area.querySelector<HTMLElement>("legend")?.focus();
  };
  replace(
    area,
    h("h2", { tabindex: -1, class: "result" }, t().finished(score(s), s.quizzes.length)),
    wrong.length > 0
      ? [
          h("h3", {}, t().mistakes),
          h(
            "ol",
            { class: "mistakes" },
            wrong.map(({ quiz, graded, chosen }) =>
              h(
                "li",
                {},
                h("p", { class: `mistake-prompt ${QUIZ_TYPE_BY_NAME[quiz.type].shows.prompt}`, lang: shownLang(quiz, "prompt") }, quiz.prompt),
                h("p", {}, `${t().yourAnswer}: `, h("span", { class: "was-wrong", lang: shownLang(quiz, "options") }, text(quiz, chosen))),
                h("p", {}, `${t().rightAnswer}: `, h("strong", { class: "was-right", lang: shownLang(quiz, "options") }, text(quiz, graded.answer))),
                answerLine(quiz, graded),
              ),
            ),
          ),
        ]
      : null,
    h(
      "div",
      { class: "buttons" },
      wrong.length > 0 ? h("button", { type: "button", class: "primary retry", onclick: retry }, t().retryWrong(wrong.length)) : null,
      h("button", { type: "button", class: wrong.length > 0 ? "" : "primary", onclick: () => s.restart() }, t().again),
    ),
    s.request ? requestPanel(s.request) : null,
  );
  area.querySelector<HTMLElement>("h2")?.focus();
}

/** The answer after a question: the idiom (idiom types, `idiom_blank`), else the character, each linked to its page. */
function answerLine(quiz: Quiz, graded: Graded): HTMLElement {
  const idiom = graded.answer_idiom;
  const character = graded.answer_character;
  const meaning: Child = idiom
    ? quizLang(quiz) === "en" && idiom.meaning_en
      ? h("span", { lang: "en" }, idiom.meaning_en)
      : idiom.meaning
    : character?.hunum.join(", ");
  const link = idiom
    ? h("a", { href: hashOf(`/idiom/${encodeURIComponent(idiom.hanja)}`) }, `${idiom.hanja} (${idiom.hangul})`)
    : h(
        "a",
        { href: hashOf(`/hanja/${encodeURIComponent(character?.character ?? "")}`) },
        `${character?.character ?? ""} (${character ? [character.reading, ...character.readings.filter((r) => r !== character.reading)].join(", ") : ""})`,
      );
  return h("p", { class: "answer-idiom", lang: "ko" }, h("span", { class: "label", lang: langAttr() }, `${t().answerIdiom}: `), link, " — ", meaning ?? "");
}

/** The language a quiz was drawn in: English when its instruction is (`lang=en`). */
function quizLang(quiz: Quiz): Lang {
  return quiz.question === QUIZ_TYPE_BY_NAME[quiz.type].question.en ? "en" : "ko";
}

/** The language of a quiz's prompt or options: the quiz's for meanings, Korean for hanja and hangul. */
export function shownLang(quiz: Quiz, part: "prompt" | "options"): Lang {
  return QUIZ_TYPE_BY_NAME[quiz.type].shows[part] === "meaning" ? quizLang(quiz) : "ko";
}

function langAttr(): Lang {
  return document.documentElement.lang === "en" ? "en" : "ko";
}
