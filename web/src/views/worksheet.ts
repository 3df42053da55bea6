/**
 * A worksheet to print: the drawn questions numbered with their choices (or a line to write the
 * answer on, for typed quizzes), a line for the name and the date, and the answer key on a page of its own (page.css's print rules hide the rest of the
 * page). The quiz is drawn with its answers, for the teacher; one metered call as any quiz.
 */
import { QUIZ_TYPE_BY_NAME, type Quiz } from "../../../runtime/core/quiz/types/index.ts";
import { h, replace } from "../dom.ts";
import { lang, stringsOf, t } from "../i18n.ts";
import { isTyped, quizLang, shownLang } from "./quizRun.ts";

/** Circled numbers for the choices, as Korean tests print them. */
const CIRCLED = ["①", "②", "③", "④", "⑤", "⑥"];

function circled(key: string): string {
  return CIRCLED[Number(key) - 1] ?? key;
}

/** Renders the worksheet of `quizzes` into `area`, with a Print button (not printed). */
export function showWorksheet(area: HTMLElement, quizzes: readonly Quiz[]): void {
  document.body.classList.remove("quizzing");
  const kinds = [...new Set(quizzes.map((quiz) => quiz.type))];
  const heading = kinds.length === 1 && kinds[0] ? QUIZ_TYPE_BY_NAME[kinds[0]].labels[lang()] : t().anyType;
  replace(
    area,
    h(
      "div",
      { class: "worksheet" },
      h("p", { class: "no-print buttons" }, h("button", { type: "button", class: "primary", onclick: () => print() }, t().print)),
      h("h2", { tabindex: -1 }, `${t().worksheet}: ${heading}`),
      h("p", { class: "sheet-names" }, h("span", {}, `${t().nameLine}: `), h("span", {}, `${t().dateLine}: `)),
      h(
        "ol",
        { class: "sheet-questions" },
        quizzes.map((quiz) => {
          const shows = QUIZ_TYPE_BY_NAME[quiz.type].shows;
          return h(
            "li",
            {},
            kinds.length > 1 || quiz === quizzes[0] ? h("p", { class: "sheet-question" }, instruction(quiz)) : null,
            h("p", { class: `sheet-prompt ${shows.prompt}`, lang: shownLang(quiz, "prompt") }, quiz.prompt),
            isTyped(quiz)
              ? h("p", { class: "sheet-answer-line" }, `${t().answerLine}: `)
              : h(
                  "ul",
                  { class: `sheet-choices ${shows.options}`, lang: shownLang(quiz, "options") },
                  quiz.choices.map((choice) => h("li", {}, `${circled(choice.key)} ${choice.text}`)),
                ),
          );
        }),
      ),
      h(
        "section",
        { class: "answer-key" },
        h("h2", {}, t().answerKey),
        h(
          "ol",
          {},
          quizzes.map((quiz) => {
            const typed = isTyped(quiz);
            const text = typed ? (quiz.answer ?? "") : (quiz.choices.find((choice) => choice.key === quiz.answer)?.text ?? "");
            // What the answer stands for, unless the choice already says it: the idiom and its reading, or
            // the character and its first 훈음 (an education hanja's 대표훈음: 大 큰 대).
            const idiom = quiz.answer_idiom;
            const shown = idiom ? (idiom.hanja === text ? "" : idiom.hanja) : (quiz.answer_character?.character ?? "");
            const hunum = idiom ? undefined : quiz.answer_character?.hunum[0];
            const about = [shown && shown !== text ? ` — ${shown}` : "", idiom ? ` (${idiom.hangul})` : "", hunum && hunum !== text ? ` (${hunum})` : ""].join(
              "",
            );
            return h("li", { lang: shownLang(quiz, "options") }, `${typed ? "" : `${circled(quiz.answer ?? "")} `}${text}${about}`);
          }),
        ),
      ),
    ),
  );
  area.querySelector<HTMLElement>(".worksheet h2")?.focus();
}

/** The instruction printed: a typed quiz's says to write the answer (the API's names choosing). */
function instruction(quiz: Quiz): string {
  return isTyped(quiz) ? (stringsOf(quizLang(quiz)).writtenQuestions[quiz.type] ?? quiz.question) : quiz.question;
}
