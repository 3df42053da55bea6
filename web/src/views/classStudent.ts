/**
 * `/?class=<code>`: a class quiz as a student takes it (docs/api.md "Class quizzes"). Its questions
 * come without their answers (`GET /classes/{code}`); the student gives a display name (nothing
 * else is asked), answers every question on one form (choices as radio buttons, typed answers in a
 * text box an input method composes in), submits once, and sees their own result, graded on the
 * server. What was typed is kept in memory, so a language switch or a refused submission (the
 * teacher's quota used up for now) leaves it in the form; the result is kept in this tab.
 */
import { QUIZ_TYPE_BY_NAME, type Quiz } from "../../../runtime/core/quiz/types/index.ts";
import type { ClassQuestionView, StudentResultView } from "../../../runtime/format/classSchemas.ts";
import { type Answer, call, storages } from "../api.ts";
import { h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { type Problem, errorBox, isProblem, loading } from "../ui.ts";
import type { ViewContext } from "./context.ts";
import { type Graded, MAX_ANSWER_LENGTH, acceptedLine, answerLine, guardComposition, quizLang, shownLang } from "./quizRun.ts";

/** A display name's longest (runtime/format/classSchemas.ts `CLASS_BOUNDS.nameMax`; not imported, as MAX_ANSWER_LENGTH). */
const NAME_MAX = 30;
const RESULT_STORAGE = "hanja-page-class-result:";

/** A class quiz as students see it. */
interface StudentClass {
  code: string;
  title: string;
  closes_at: string;
  answer_format: "choices" | "typed";
  lang: "ko" | "en";
  questions: ClassQuestionView[];
}

/** A submission's answer: the result, and whether it is the first one sent again. */
interface Submitted {
  result: StudentResultView;
  repeated?: boolean;
}

/** What the student has written so far, by class code. */
const drafts = new Map<string, { name: string; answers: string[] }>();

/** A question as the quiz helpers read one (a class question is a quiz without its answers or id). */
function asQuiz(question: ClassQuestionView): Quiz {
  return question as unknown as Quiz;
}

function typeOf(question: ClassQuestionView): (typeof QUIZ_TYPE_BY_NAME)[keyof typeof QUIZ_TYPE_BY_NAME] | undefined {
  return QUIZ_TYPE_BY_NAME[question.type as keyof typeof QUIZ_TYPE_BY_NAME];
}

/** A time in the page's language: day, hour and minute. */
export function when(iso: string): string {
  return new Date(iso).toLocaleString(lang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** The student's view of the class quiz `ctx.arg`. */
export async function classStudentView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const code = ctx.arg;
  replace(main, h("h1", { tabindex: -1 }, t().classStudentTitle), loading());
  let answer: Answer<{ class: StudentClass } | Problem>;
  try {
    answer = await call<{ class: StudentClass } | Problem>(`${ctx.bases.quiz}/classes/${encodeURIComponent(code)}`);
  } catch (error) {
    if (ctx.current())
      replace(
        main,
        h("h1", { tabindex: -1 }, t().classStudentTitle),
        errorBox(error, () => void classStudentView(main, ctx)),
      );
    return;
  }
  if (!ctx.current()) return;
  const body = answer.body;
  if (isProblem(body)) {
    replace(main, h("h1", { tabindex: -1 }, t().classStudentTitle), errorBox({ ...body, detail: studentProblem(answer) }));
    return;
  }
  const saved = savedResult(code);
  if (saved) showResult(main, ctx, body.class, saved);
  else showForm(main, ctx, body.class);
}

/** What a refusal means to a student, in the page's language. */
function studentProblem(answer: Answer<unknown>): string {
  const problem = answer.body as Problem;
  if (answer.status === 404 || (answer.status === 400 && problem.param === "code")) return t().classUnknown;
  if (answer.status === 410) return t().classClosedStudent;
  if (answer.status === 403) return t().classInactive;
  if (answer.status === 409) return t().classNameTaken;
  if (problem.code === "class_full") return t().classFull;
  if (problem.code === "too_many_requests") return t().classBusy;
  if (problem.code === "quota_exceeded") {
    const back = answer.retryAfter === undefined ? undefined : new Date(Date.now() + answer.retryAfter * 1000).toISOString();
    return back ? `${t().classQuotaLater} ${t().classQuotaAt(when(back))}` : t().classQuotaLater;
  }
  return problem.detail ?? problem.title ?? t().error;
}

/** The form: the name, each question, Submit. */
function showForm(main: HTMLElement, ctx: ViewContext, klass: StudentClass): void {
  const draft = drafts.get(klass.code) ?? { name: "", answers: klass.questions.map(() => "") };
  drafts.set(klass.code, draft);
  // A student who sees the notice of blank answers and submits again sends them as they are.
  let confirmed = false;
  let blankNotice = false;
  let busy = false;
  const outcome = h("div", { class: "class-outcome" });
  const nameError = h("span", { class: "field-error", id: "class-name-error" });
  const name = h("input", {
    type: "text",
    id: "class-name",
    name: "name",
    value: draft.name,
    maxlength: NAME_MAX,
    autocomplete: "off",
    spellcheck: "false",
    enterkeyhint: "next",
    oninput: () => ((draft.name = name.value), name.removeAttribute("aria-invalid"), replace(nameError)),
  });
  guardComposition(name);
  // The controls Enter moves through: the name, each question's first control, then Submit.
  const stops: HTMLElement[] = [name];
  const questions = klass.questions.map((question, i) => {
    const quiz = asQuiz(question);
    const shows = typeOf(question)?.shows ?? { prompt: "hanja", options: "hanja" };
    const changed = (value: string) => {
      draft.answers[i] = value;
      confirmed = false;
      if (blankNotice) replace(outcome);
      blankNotice = false;
    };
    let control: HTMLElement;
    if (question.answer_format === "typed") {
      const id = `class-answer-${question.number}`;
      const input = h("input", {
        type: "text",
        id,
        name: `answer-${question.number}`,
        class: `typed-input ${shows.options}`,
        lang: shownLang(quiz, "options"),
        value: draft.answers[i] ?? "",
        maxlength: MAX_ANSWER_LENGTH,
        autocomplete: "off",
        autocapitalize: "off",
        autocorrect: "off",
        spellcheck: "false",
        enterkeyhint: "next",
        oninput: () => changed(input.value),
      });
      guardComposition(input);
      stops.push(input);
      control = h("div", { class: "typed" }, h("label", { for: id }, t().typedField), input);
    } else {
      const radios = question.choices.map((choice) =>
        h("input", {
          type: "radio",
          name: `answer-${question.number}`,
          value: choice.key,
          checked: draft.answers[i] === choice.key,
          onchange: () => changed(choice.key),
        }),
      );
      stops.push(radios.find((radio) => radio.checked) ?? (radios[0] as HTMLInputElement));
      control = h(
        "div",
        { class: `choices class-choices ${shows.options}` },
        question.choices.map((choice, n) =>
          h(
            "label",
            { class: "choice class-choice", lang: shownLang(quiz, "options") },
            radios[n],
            h("span", { class: "choice-key", "aria-hidden": "true" }, choice.key),
            h("span", {}, choice.text),
          ),
        ),
      );
    }
    return h(
      "fieldset",
      { class: "question class-question" },
      h(
        "legend",
        { lang: quizLang(quiz) },
        h("span", { class: "question-number", lang: lang() }, `${t().classQuestion(question.number)}. `),
        question.question,
      ),
      h("p", { class: `prompt ${question.type} ${shows.prompt}`, lang: shownLang(quiz, "prompt") }, question.prompt),
      control,
    );
  });
  const submitButton = h("button", { type: "submit", class: "primary" }, t().classSubmit);
  stops.push(submitButton);

  const submit = async () => {
    if (busy) return;
    const given = name.value.trim();
    if (given === "") {
      name.setAttribute("aria-invalid", "true");
      replace(nameError, t().classNameEmpty);
      name.focus();
      return;
    }
    const answers = draft.answers.map((text) => text.trim());
    const blanks = klass.questions.filter((_, i) => answers[i] === "").map((q) => q.number);
    if (blanks.length > 0 && !confirmed) {
      confirmed = true;
      blankNotice = true;
      replace(outcome, h("p", { class: "error", role: "alert" }, t().classBlanks(blanks.join(", "))));
      return;
    }
    busy = true;
    blankNotice = false;
    submitButton.setAttribute("aria-disabled", "true");
    replace(outcome, loading());
    try {
      const answer = await call<Submitted | Problem>(
        `${ctx.bases.quiz}/classes/${encodeURIComponent(klass.code)}/submissions`,
        {},
        {
          method: "POST",
          json: { name: given, answers },
        },
      );
      const body = answer.body;
      if (isProblem(body)) {
        replace(outcome, errorBox({ ...body, detail: studentProblem(answer) }));
        if (body.param === "name") {
          name.setAttribute("aria-invalid", "true");
          replace(nameError, answer.status === 409 ? t().classNameTaken : (body.detail ?? ""));
          name.focus();
        }
        return;
      }
      drafts.delete(klass.code);
      keepResult(klass.code, body);
      if (ctx.current()) showResult(main, ctx, klass, body);
    } catch (error) {
      replace(outcome, errorBox(error));
    } finally {
      busy = false;
      submitButton.removeAttribute("aria-disabled");
    }
  };

  const form = h(
    "form",
    {
      class: "class-form",
      novalidate: true,
      onsubmit: (event: Event) => (event.preventDefault(), void submit()),
      // Enter in a field goes on to the next question (once an input method has let it go): only Submit sends, once.
      onkeydown: (event: Event) => {
        const key = event as KeyboardEvent;
        const target = key.target as HTMLElement;
        if (key.key !== "Enter" || key.defaultPrevented || target.tagName !== "INPUT") return;
        event.preventDefault();
        const at = stops.findIndex((stop) => stop === target || (stop instanceof HTMLInputElement && stop.name === (target as HTMLInputElement).name));
        stops[at + 1]?.focus();
      },
    },
    h(
      "div",
      { class: "field" },
      h("label", { for: name.id }, t().classNameField),
      name,
      h("span", { class: "hint", id: "class-name-hint" }, t().classNameHint),
      nameError,
    ),
    questions,
    h("p", { class: "hint", id: "class-submit-hint" }, t().classSubmitHint),
    h("div", { class: "buttons" }, submitButton),
    outcome,
  );
  name.setAttribute("aria-describedby", "class-name-hint class-name-error");
  submitButton.setAttribute("aria-describedby", "class-submit-hint");
  replace(
    main,
    h("h1", { tabindex: -1 }, klass.title || t().classStudentTitle),
    h("p", {}, t().classStudentIntro, " ", t().classClosesAt(when(klass.closes_at))),
    form,
  );
}

/** The student's own result: the score, and each answer right or wrong with the right answer. */
function showResult(main: HTMLElement, ctx: ViewContext, klass: StudentClass, submitted: Submitted): void {
  const { result } = submitted;
  // A classroom's shared computer: the next student starts on an empty form, without this result.
  const next = () => {
    keepResult(klass.code, undefined);
    showForm(main, ctx, klass);
    main.querySelector<HTMLElement>("#class-name")?.focus();
  };
  replace(
    main,
    h("h1", { tabindex: -1 }, klass.title || t().classStudentTitle),
    h("h2", { tabindex: -1, class: "result" }, t().classYourResult(result.score, result.total)),
    submitted.repeated ? h("p", { class: "applied", role: "status" }, t().classRepeated) : null,
    h("p", {}, `${t().classNameShown}: `, h("strong", {}, result.name)),
    h(
      "ol",
      { class: "class-result mistakes" },
      klass.questions.map((question, i) => {
        const graded = result.answers[i] as (Graded & { given: string }) | undefined;
        if (!graded) return null;
        const quiz = asQuiz(question);
        const typed = question.answer_format === "typed";
        const text = (key: string) => (typed ? key : (question.choices.find((choice) => choice.key === key)?.text ?? key));
        const shows = typeOf(question)?.shows.prompt ?? "hanja";
        return h(
          "li",
          { class: graded.correct ? "is-right" : "is-wrong" },
          h("p", { class: `mistake-prompt ${shows}`, lang: shownLang(quiz, "prompt") }, question.prompt),
          h(
            "p",
            {},
            h("strong", { class: graded.correct ? "was-right" : "was-wrong-mark" }, graded.correct ? `✓ ${t().classMarkRight}` : `✗ ${t().classMarkWrong}`),
            " · ",
            `${typed ? t().typedYours : t().yourAnswer}: `,
            h(
              "span",
              { class: graded.correct ? "" : "was-wrong", lang: shownLang(quiz, "options") },
              graded.given === "" ? t().classBlank : text(graded.given),
            ),
          ),
          graded.correct
            ? null
            : h(
                "p",
                {},
                `${typed ? t().typedRight : t().rightAnswer}: `,
                h("strong", { class: "was-right", lang: shownLang(quiz, "options") }, text(graded.answer)),
              ),
          typed ? acceptedLine(quiz, graded) : null,
          graded.answer_idiom || graded.answer_character ? answerLine(quiz, graded) : null,
        );
      }),
    ),
    h("div", { class: "buttons" }, h("button", { type: "button", onclick: next }, t().classNextStudent)),
  );
  main.querySelector<HTMLElement>("h2")?.focus();
}

/** The result kept in this tab, so that reloading the link shows it again. */
function savedResult(code: string): Submitted | undefined {
  try {
    const text = storages().tab?.getItem(RESULT_STORAGE + code);
    return text ? (JSON.parse(text) as Submitted) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the result in this tab, or with `undefined` forgets it. */
function keepResult(code: string, submitted: Submitted | undefined): void {
  try {
    if (submitted) storages().tab?.setItem(RESULT_STORAGE + code, JSON.stringify(submitted));
    else storages().tab?.removeItem(RESULT_STORAGE + code);
  } catch {
    // Storage refused: the result shows until the page is left.
  }
}
