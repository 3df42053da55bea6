/**
 * Typed answers on the page (`answer_format=typed`), in a real browser: the settings offer typing
 * for the types that take it, a typed question has a labelled text box and says to type, Enter
 * checks the answer but not while an input method is composing Hangul, and grading is on the page
 * when the answers came with the quiz and by `POST /grade` for a class's quiz. Korean and English,
 * phone and desktop, keyboard and axe.
 */
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

interface TypedQuiz {
  quiz_id: string;
  type: string;
  question: string;
  answer_format?: string;
  prompt: string;
  choices: unknown[];
  answer?: string;
  accepted?: string[];
}

/** Draws on Start and returns the request's query and the quizzes drawn. */
async function startQuiz(page: Page, start: () => Promise<void>): Promise<{ query: URLSearchParams; quizzes: TypedQuiz[] }> {
  const response = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
  await start();
  const body = (await (await response).json()) as { quizzes?: TypedQuiz[]; quiz?: TypedQuiz };
  return { query: new URL((await response).url()).searchParams, quizzes: body.quizzes ?? (body.quiz ? [body.quiz] : []) };
}

/** Counts the page's `POST /grade` calls. */
function gradeCalls(page: Page): { count: number; bodies: unknown[] } {
  const seen = { count: 0, bodies: [] as unknown[] };
  page.on("request", (request) => {
    if (request.url().endsWith("/quiz/v1/grade") && request.method() === "POST") {
      seen.count++;
      seen.bodies.push(request.postDataJSON());
    }
  });
  return seen;
}

describe("the page as a study tool: typed answers", () => {
  it("offers typing for the types that take it, says to type, and grades what is typed on the page (English, desktop)", async () => {
    const base = session.served.url;
    const { page, context, watch } = await openPage(session.browser, base, DESKTOP, "en-US");
    const grades = gradeCalls(page);
    await page.goto(`${base}/#/quiz`);
    const format = page.getByRole("combobox", { name: "Answer by" });
    expect(await format.locator("option").allTextContents()).toEqual(["Choosing", "Typing"]);
    // A type without typed answers: typing is not offered, and a chosen "Typing" falls back.
    await format.selectOption("typed");
    expect(await page.getByRole("combobox", { name: "Choices per question" }).isDisabled()).toBe(true);
    await page.getByRole("combobox", { name: "Question type" }).selectOption("idiom_to_meaning");
    expect(await format.inputValue()).toBe("choices");
    expect(await format.locator("option[value=typed]").isDisabled()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Choices per question" }).isDisabled()).toBe(false);
    await page.getByRole("combobox", { name: "Question type" }).selectOption("hanja_to_reading");
    await format.selectOption("typed");
    await page.getByRole("spinbutton", { name: "Questions" }).fill("2");
    const { query, quizzes } = await startQuiz(page, () => page.getByRole("button", { name: "Start quiz" }).click());
    expect(query.get("answer_format")).toBe("typed");
    expect(query.get("choices")).toBeNull();
    expect(page.url()).toMatch(/#\/quiz\?type=hanja_to_reading&count=2&answer_format=typed$/);
    expect(quizzes.map((quiz) => quiz.answer_format)).toEqual(["typed", "typed"]);
    // The instruction says to type, not to choose; the box is labelled and described.
    await page.getByText("Question 1 of 2").waitFor();
    expect(await page.locator("legend").textContent()).toBe("Type the reading of this character.");
    const box = page.getByRole("textbox", { name: "Your answer" });
    expect(await box.getAttribute("lang")).toBe("ko");
    expect(await box.getAttribute("autocomplete")).toBe("off");
    expect(await page.locator(".choice").count()).toBe(0);
    // An empty answer is not checked: the field says why.
    await page.getByRole("button", { name: "Check" }).click();
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").textContent()).toBe("Type an answer first.");
    await shoot(page, "desktop-quiz-typed-en");
    expect(await axe(page)).toEqual([]);
    // The first answered right with an accepted form other than the standard one when there is one, the second wrong.
    const first = quizzes[0] as TypedQuiz;
    await box.fill(` ${first.accepted?.at(-1) ?? ""} `);
    await box.press("Enter");
    await page.getByText("Correct!").waitFor();
    expect(await box.getAttribute("readonly")).toBe("");
    await page.locator(".next").click();
    await box.fill("틀림");
    await page.getByRole("button", { name: "Check" }).click();
    const second = quizzes[1] as TypedQuiz;
    await page.getByText(`Not quite — the answer is ${second.answer}.`).waitFor();
    await page.locator(".next").click();
    await page.getByRole("heading", { name: "Finished: 1 of 2 right." }).waitFor();
    expect(await page.locator(".mistakes li").textContent()).toContain(`Your answer: 틀림Right answer: ${second.answer}`);
    expect(grades.count).toBe(0);
    await shoot(page, "desktop-quiz-typed-result-en");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });

  it("takes a class's typed quiz by keyboard, checks nothing on the Enter that ends a Hangul syllable, and grades by POST /grade (Korean, phone)", async () => {
    const base = session.served.url;
    const { page, context, watch } = await openPage(session.browser, base, PHONE, "ko-KR");
    const grades = gradeCalls(page);
    await page.goto(`${base}/#/quiz?type=hanja_to_hunum&count=2&answer_format=typed`);
    expect(await page.getByRole("combobox", { name: "답하는 방법" }).inputValue()).toBe("typed");
    await page.getByRole("button", { name: "반 전체에 같은 퀴즈" }).click();
    const link = (await page.locator(".class-link code").textContent()) ?? "";
    expect(link).toMatch(/#\/quiz\?type=hanja_to_hunum&count=2&answer_format=typed&seed=\d+$/);
    await page.goto(link);
    const { query, quizzes } = await startQuiz(page, () => page.getByRole("button", { name: "퀴즈 시작" }).click());
    expect(query.get("reveal")).toBe("0");
    expect(query.get("answer_format")).toBe("typed");
    expect(quizzes.every((quiz) => quiz.answer === undefined && quiz.accepted === undefined)).toBe(true);
    await page.getByText("2문제 중 1번").waitFor();
    expect(await page.locator("legend").textContent()).toBe("다음 한자의 훈음을 입력하세요.");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("LEGEND");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("answer");
    // The right 훈음, learnt as a student cannot (the server grades one wrong answer and says the right one).
    const right = await rightAnswer(quizzes[0]?.quiz_id ?? "");
    // Typed through the input method: Enter while a syllable is being composed ends the syllable, and checks nothing.
    const cdp = await context.newCDPSession(page);
    const [head, last] = [right.slice(0, -1), right.slice(-1)];
    await page.keyboard.insertText(head);
    await compose(cdp, last);
    await page.keyboard.press("Enter");
    await commit(cdp, last);
    expect(await page.getByRole("textbox", { name: "답" }).inputValue()).toBe(right);
    await page.waitForTimeout(200);
    expect(grades.count).toBe(0);
    expect(await page.locator(".feedback").count()).toBe(0);
    // The next Enter checks it, on the server.
    await page.keyboard.press("Enter");
    await page.getByText("정답입니다!").waitFor();
    expect(grades.bodies).toEqual([{ quiz_id: quizzes[0]?.quiz_id, answer: right }]);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("다음 문제");
    await page.keyboard.press("Enter");
    await page.getByText("2문제 중 2번").waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.insertText("아무 말");
    await page.keyboard.press("Enter");
    await page.getByText("아쉽네요", { exact: false }).waitFor();
    expect(grades.bodies[1]).toEqual({ quiz_id: quizzes[1]?.quiz_id, answer: "아무 말" });
    await shoot(page, "phone-quiz-typed-ko");
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "끝! 2문제 중 1문제를 맞혔습니다." }).waitFor();
    expect(await page.locator(".mistakes li").textContent()).toContain("입력한 답: 아무 말");
    // Asked again, the missed one is graded on the page with the answers the server gave.
    await page.getByRole("button", { name: "틀린 1문제 다시 풀기" }).click();
    await page.getByRole("textbox", { name: "답" }).fill(await rightAnswer(quizzes[1]?.quiz_id ?? ""));
    await page.getByRole("textbox", { name: "답" }).press("Enter");
    await page.getByText("정답입니다!").waitFor();
    expect(grades.count).toBe(2);
    expectClean(watch);
    await context.close();
  });

  it("prints a typed worksheet with a line for each answer and the answers in the key (Korean)", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "ko-KR");
    await page.goto(`${session.served.url}/#/quiz?type=hanja_to_reading&count=3&answer_format=typed`);
    const { quizzes } = await startQuiz(page, () => page.locator("button.for-sheet").click());
    await page.locator(".worksheet").waitFor();
    expect(await page.locator(".sheet-answer-line").count()).toBe(3);
    expect(await page.locator(".sheet-question").textContent()).toBe("다음 한자의 음(독음)을 쓰세요.");
    const key = await page.locator(".answer-key li").allTextContents();
    expect(key.map((line) => line.split(" ")[0])).toEqual(quizzes.map((quiz) => quiz.answer));
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });
});

/** Starts composing `text` in the focused field, as a Korean input method does. */
async function compose(cdp: CDPSession, text: string): Promise<void> {
  await cdp.send("Input.imeSetComposition", { text, selectionStart: text.length, selectionEnd: text.length });
}

/** Ends the composition, committing `text`. */
async function commit(cdp: CDPSession, text: string): Promise<void> {
  await cdp.send("Input.insertText", { text });
}

/** The right answer of a quiz drawn without it, learnt as a student cannot: by asking the server (from outside the page) to grade a wrong one. */
async function rightAnswer(quizId: string): Promise<string> {
  const r = await fetch(`${session.served.url}/quiz/v1/grade`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ quiz_id: quizId, answer: "-" }),
  });
  return ((await r.json()) as { result: { answer: string } }).result.answer;
}
