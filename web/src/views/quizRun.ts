/**
 * A drawn quiz being taken: each question, answered by a choice or typed (`answer_format=typed`),
 * graded on the page when the answers came with it, or by `POST /grade` when they were hidden
 * (`reveal=0`, a class's quiz); at the end the mistakes with their right answers, and the wrong
 * ones asked again.
 */
import { gradingForm } from "../../../runtime/core/quiz/characterBank.ts";
import { QUIZ_TYPE_BY_NAME, type Quiz } from "../../../runtime/core/quiz/types/index.ts";
/** The longest answer `POST /grade` takes (runtime/format/quizSchemas.ts; not imported: that module would bring the schemas into the script). */
export const MAX_ANSWER_LENGTH = 100;
import { type Answer, call } from "../api.ts";
import { type Child, h, replace } from "../dom.ts";
import { type Lang, t } from "../i18n.ts";
import { recordAnswer } from "../review.ts";
import { type Problem, errorBox, isProblem, requestPanel } from "../ui.ts";
import { hashOf } from "./context.ts";
import { questionCharacters, writingHash } from "./writing.ts";

/** An answer graded: right or not, and the right answer with what it stands for. */
export interface Graded {
  correct: boolean;
  answer: string;
  /** A typed quiz's every answer graded right. */
  accepted?: string[];
  answer_idiom?: Quiz["answer_idiom"];
  answer_character?: Quiz["answer_character"];
}

/** The quiz being taken: its questions, which is shown, what was answered and how it was graded. */
export interface Session {
  config: string;
  quizzes: Quiz[];
  index: number;
  /** The key chosen, or the text typed. */
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

/** Whether the quiz is answered by typing (`answer_format=typed`). */
export function isTyped(quiz: Quiz): boolean {
  return quiz.answer_format === "typed";
}

/**
 * Grades an answer (a key, or typed text): on the page when the quiz carries its answer (typed text
 * compared with every accepted answer as the server compares them), else by `POST /grade` (not metered).
 */
async function grade(s: Session, quiz: Quiz, key: string): Promise<Graded> {
  if (quiz.answer !== undefined) {
    const correct = isTyped(quiz) ? (quiz.accepted ?? [quiz.answer]).some((text) => gradingForm(text) === gradingForm(key)) : key === quiz.answer;
    return { correct, answer: quiz.answer, accepted: quiz.accepted, answer_idiom: quiz.answer_idiom, answer_character: quiz.answer_character };
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
  const typed = isTyped(quiz);
  // A typed quiz's instruction is the API's own (`typedQuestion`: type, not choose).
  const question = quiz.question;
  replace(
    area,
    h("p", { class: "progress" }, t().question(s.index + 1, s.quizzes.length), " · ", h("span", { class: "score" }, t().score(score(s), answeredCount(s)))),
    h(
      "fieldset",
      { class: "question" },
      h("legend", { tabindex: -1, lang: quizLang(quiz) }, question),
      // Classed by what they show (hanja, hangul, hunum, meaning): hanja are set large in the serif face.
      h("p", { class: `prompt ${quiz.type} ${shows.prompt}`, lang: shownLang(quiz, "prompt") }, quiz.prompt),
      typed ? typedAnswer(area, s, quiz) : h("div", { class: `choices ${shows.options}` }, buttons),
    ),
    graded
      ? h(
          "div",
          { class: `feedback ${graded.correct ? "is-right" : "is-wrong"}`, role: "status" },
          h("p", { class: "verdict" }, graded.correct ? t().correct : t().wrong(typed ? graded.answer : `${graded.answer}. ${right?.text ?? ""}`)),
          typed ? acceptedLine(quiz, graded) : null,
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

/**
 * A typed quiz's answer box: a labelled text field and a Check button in a form, so Enter submits,
 * but not while an input method is composing (Enter then ends the Hangul syllable being composed).
 */
function typedAnswer(area: HTMLElement, s: Session, quiz: Quiz): HTMLElement {
  const chosen = s.chosen[s.index];
  const graded = s.graded[s.index];
  const id = `typed-${s.index}`;
  const problem = h("p", { class: "field-error", id: `${id}-error`, role: "alert" });
  const input = h("input", {
    type: "text",
    id,
    name: "answer",
    class: `typed-input ${QUIZ_TYPE_BY_NAME[quiz.type].shows.options} ${graded ? (graded.correct ? "right" : "wrong") : ""}`,
    lang: shownLang(quiz, "options"),
    value: chosen ?? "",
    maxlength: MAX_ANSWER_LENGTH,
    autocomplete: "off",
    autocapitalize: "off",
    autocorrect: "off",
    spellcheck: "false",
    enterkeyhint: "done",
    readonly: chosen !== undefined,
    "aria-describedby": `${id}-hint ${id}-error`,
    oninput: () => (input.removeAttribute("aria-invalid"), replace(problem)),
  });
  const composing = guardComposition(input);
  const submit = (event: Event) => {
    event.preventDefault();
    if (composing() || s.chosen[s.index] !== undefined) return;
    const text = input.value.trim();
    if (text === "") {
      input.setAttribute("aria-invalid", "true");
      replace(problem, t().typedEmpty);
      input.focus();
      return;
    }
    void choose(area, s, quiz, text);
  };
  return h(
    "form",
    { class: "typed", onsubmit: submit, novalidate: true },
    h("label", { for: id }, t().typedField),
    h(
      "div",
      { class: "typed-row" },
      input,
      h("button", { type: "submit", class: "primary check", "aria-disabled": chosen !== undefined ? "true" : undefined }, t().typedCheck),
    ),
    h("span", { class: "hint", id: `${id}-hint` }, t().typedHint),
    problem,
  );
}

/**
 * Keeps Enter from acting on a text box while an input method composes (Enter then ends the Hangul
 * syllable being composed, and must neither check nor submit); returns whether it composes now.
 */
export function guardComposition(input: HTMLInputElement): () => boolean {
  let composing = false;
  input.addEventListener("compositionstart", () => (composing = true));
  input.addEventListener("compositionend", () => (composing = false));
  input.addEventListener("keydown", (event) => {
    // 229: the key an input method took (Safari reports Enter so after the composition has ended).
    if (event.key === "Enter" && (event.isComposing || event.keyCode === 229 || composing)) event.preventDefault();
  });
  return () => composing;
}

/** The other answers a typed quiz takes (樂: 낙, 락, 악, 요), when there are others. */
export function acceptedLine(quiz: Quiz, graded: Graded): HTMLElement | null {
  const others = (graded.accepted ?? []).filter((text) => text !== graded.answer);
  return others.length > 0 ? h("p", { class: "accepted" }, `${t().typedAccepted}: `, h("span", { lang: shownLang(quiz, "options") }, others.join(", "))) : null;
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
    recordAnswer(
      { ...quiz, answer: graded.answer, accepted: graded.accepted, answer_idiom: graded.answer_idiom, answer_character: graded.answer_character },
      graded.correct,
    );
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
  // The quiz's characters for a writing sheet, as graded (a class's quiz came without its answers).
  const characters = s.quizzes.flatMap((quiz, i) => {
    const graded = s.graded[i];
    return graded ? questionCharacters({ ...graded, prompt: quiz.prompt, answer: text(quiz, graded.answer) }) : [];
  });
  const retry = () => {
    // Asked again with the answers now known: graded on the page, no call.
    const quizzes = wrong.map(({ quiz, graded }) => ({
      ...quiz,
      answer: graded.answer,
      accepted: graded.accepted,
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
                h(
                  "p",
                  {},
                  `${isTyped(quiz) ? t().typedYours : t().yourAnswer}: `,
                  h("span", { class: "was-wrong", lang: shownLang(quiz, "options") }, text(quiz, chosen)),
                ),
                h(
                  "p",
                  {},
                  `${isTyped(quiz) ? t().typedRight : t().rightAnswer}: `,
                  h("strong", { class: "was-right", lang: shownLang(quiz, "options") }, text(quiz, graded.answer)),
                ),
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
      characters.length > 0 ? h("a", { href: writingHash("quiz", characters), class: "button for-writing" }, t().writingOfQuiz) : null,
    ),
    s.request ? requestPanel(s.request) : null,
  );
  area.querySelector<HTMLElement>("h2")?.focus();
}

/** The answer after a question: the idiom (idiom types, `idiom_blank`), else the character, each linked to its page. */
export function answerLine(quiz: Quiz, graded: Graded): HTMLElement {
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
export function quizLang(quiz: Quiz): Lang {
  const type = QUIZ_TYPE_BY_NAME[quiz.type];
  return quiz.question === type.question.en || quiz.question === type.typedQuestion?.en ? "en" : "ko";
}

/** The language of a quiz's prompt or options: the quiz's for meanings, Korean for hanja and hangul. */
export function shownLang(quiz: Quiz, part: "prompt" | "options"): Lang {
  return QUIZ_TYPE_BY_NAME[quiz.type].shows[part] === "meaning" ? quizLang(quiz) : "ko";
}

function langAttr(): Lang {
  return document.documentElement.lang === "en" ? "en" : "ko";
}
