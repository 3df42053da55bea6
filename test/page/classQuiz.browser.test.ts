/**
 * A quiz for a class (issue #40), in a real browser: one link with a seed gives every student the
 * same questions, drawn without their answers and graded by the server; the mistakes are listed
 * with the right answers and the wrong ones asked again; all of it by keyboard too.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { DESKTOP, PHONE, SCREENSHOTS, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

interface Drawn {
  quizzes: { quiz_id: string; prompt: string; answer?: string; choices: { key: string; text: string }[] }[];
}

describe("the page as a study tool: a quiz for a class", () => {
  it("makes one link for the class: the same questions for everyone, graded by the server, mistakes listed and the wrong ones asked again", async () => {
    const base = session.served.url;
    const teacher = await openPage(session.browser, base, DESKTOP);
    await teacher.page.goto(`${base}/#/quiz`);
    const types = await teacher.page.getByRole("combobox", { name: "Question type" }).locator("option").allTextContents();
    expect(types).toHaveLength(8);
    await teacher.page.getByRole("combobox", { name: "Question type" }).selectOption("hanja_to_hunum");
    await teacher.page.getByRole("combobox", { name: "Difficulty" }).selectOption("hard");
    await teacher.page.getByRole("combobox", { name: "Characters asked" }).selectOption("name");
    await teacher.page.getByRole("spinbutton", { name: "Questions" }).fill("3");
    await teacher.page.getByRole("button", { name: "One quiz for the class" }).click();
    const link = (await teacher.page.locator(".class-link code").textContent()) ?? "";
    expect(link).toMatch(/#\/quiz\?type=hanja_to_hunum&choices=4&count=3&difficulty=hard&level=name&seed=\d+$/);
    await shoot(teacher.page, "desktop-quiz-class-link");
    expect(await axe(teacher.page)).toEqual([]);
    expectClean(teacher.watch);
    await teacher.context.close();

    // Two students open the link: one in English at a desk, one in Korean on a phone.
    const drawn: Drawn[] = [];
    for (const [viewport, locale] of [
      [DESKTOP, "en-US"],
      [PHONE, "ko-KR"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, base, viewport, locale);
      await page.goto(link);
      await page.locator(".class-link [role=status]").waitFor();
      const response = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
      await page.locator(".quiz-form button[type=submit]").click();
      const url = new URL((await response).url());
      expect(url.searchParams.get("reveal")).toBe("0");
      expect(url.searchParams.get("seed")).toBe(new URL(link).hash.match(/seed=(\d+)/)?.[1]);
      const body = (await (await response).json()) as Drawn;
      expect(body.quizzes.every((quiz) => quiz.answer === undefined)).toBe(true);
      drawn.push(body);
      if (locale === "en-US") await answerAndReview(page, body);
      await shoot(page, `${locale === "en-US" ? "desktop" : "phone"}-quiz-class-${locale.slice(0, 2)}`);
      expectClean(watch);
      await context.close();
    }
    const [first, second] = drawn.map((d) => d.quizzes.map(({ prompt, choices }) => ({ prompt, choices })));
    expect(second).toEqual(first);
  });
});

/** Answers the first question right and the others wrong (learning the answers from the server), then checks the review and retries. */
async function answerAndReview(page: Page, body: Drawn): Promise<void> {
  const rights: string[] = [];
  for (const [i, quiz] of body.quizzes.entries()) {
    const graded = await rightAnswer(page, quiz.quiz_id);
    rights.push(graded);
    const pick = i === 0 ? graded : (quiz.choices.find((c) => c.key !== graded)?.key ?? "");
    const grading = page.waitForResponse((r) => r.url().endsWith("/quiz/v1/grade"));
    await page
      .locator(".choice")
      .nth(Number(pick) - 1)
      .click();
    expect((await grading).request().postDataJSON()).toEqual({ quiz_id: quiz.quiz_id, answer: pick });
    await page.getByText(i === 0 ? "Correct!" : `Not quite — the answer is ${graded}.`, { exact: false }).waitFor();
    await page.locator(".next").click();
  }
  await page.getByRole("heading", { name: "Finished: 1 of 3 right." }).waitFor();
  const mistakes = page.locator(".mistakes li");
  expect(await mistakes.count()).toBe(2);
  for (const [n, i] of [1, 2].entries()) {
    const quiz = body.quizzes[i];
    const right = quiz?.choices.find((c) => c.key === rights[i])?.text ?? "?";
    expect(await mistakes.nth(n).locator(".mistake-prompt").textContent()).toBe(quiz?.prompt);
    expect(await mistakes.nth(n).locator(".was-right").textContent()).toBe(right);
  }
  await shoot(page, "desktop-quiz-class-mistakes");
  expect(await axe(page)).toEqual([]);
  // Retry the wrong ones: the two missed questions again, graded on the page now the answers are known.
  await page.getByRole("button", { name: "Retry the 2 wrong ones" }).click();
  await page.getByText("Question 1 of 2").waitFor();
  expect(await page.locator(".prompt").textContent()).toBe(body.quizzes[1]?.prompt);
  await page
    .locator(".choice")
    .nth(Number(rights[1]) - 1)
    .click();
  await page.getByText("Correct!").waitFor();
}

describe("the page as a study tool: a class's quiz by keyboard", () => {
  it("makes the link, takes the quiz, reviews the mistake and retries it with the keyboard alone, in Korean on a phone", async () => {
    const base = session.served.url;
    const { page, context, watch } = await openPage(session.browser, base, PHONE, "ko-KR");
    const active = () =>
      page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.getAttribute("name") ?? document.activeElement?.textContent}`);
    const tabTo = async (target: string | RegExp) => {
      for (let i = 0; i < 30 && !(await active()).match(target); i++) await page.keyboard.press("Tab");
      expect(await active()).toMatch(target);
    };
    await page.goto(`${base}/#/quiz`);
    await tabTo("INPUT:count");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("2");
    await tabTo("BUTTON:반 전체에 같은 퀴즈");
    await page.keyboard.press("Enter");
    const link = (await page.locator(".class-link code").textContent()) ?? "";
    expect(link).toMatch(/#\/quiz\?choices=4&count=2&seed=\d+$/);
    await tabTo("BUTTON:복사");
    // A student opens it.
    await page.goto(link);
    await tabTo("BUTTON:퀴즈 시작");
    const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
    await page.keyboard.press("Enter");
    const quizzes = ((await (await drawn).json()) as Drawn).quizzes;
    for (const [i, quiz] of quizzes.entries()) {
      await page.getByText(`2문제 중 ${i + 1}번`).waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("LEGEND");
      const right = await rightAnswer(page, quiz.quiz_id);
      // The first is answered wrong, the second right: the choice is reached by Tab, chosen by Space.
      const pick = i === 0 ? (quiz.choices.find((c) => c.key !== right)?.key ?? "1") : right;
      for (let n = 0; n < Number(pick); n++) await page.keyboard.press("Tab");
      await page.keyboard.press("Space");
      await page.getByText(i === 0 ? "아쉽네요" : "정답입니다!", { exact: false }).waitFor();
      expect(await active()).toMatch(/^BUTTON:(다음 문제|결과 보기)$/);
      await page.keyboard.press("Enter");
    }
    await page.getByRole("heading", { name: "끝! 2문제 중 1문제를 맞혔습니다." }).waitFor();
    expect(await page.locator(".mistakes li").count()).toBe(1);
    await shoot(page, "phone-quiz-class-mistakes-ko");
    await tabTo("BUTTON:틀린 1문제 다시 풀기");
    await page.keyboard.press("Enter");
    await page.getByText("1문제 중 1번").waitFor();
    expect(await page.locator(".prompt").textContent()).toBe(quizzes[0]?.prompt);
    expectClean(watch);
    await context.close();
  });
});

/** The right answer of a quiz drawn without it, learnt as a student cannot: by asking the server to grade key 1. */
async function rightAnswer(page: Page, quizId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const r = await fetch("/quiz/v1/grade", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ quiz_id: id, answer: "1" }),
    });
    return ((await r.json()) as { result: { answer: string } }).result.answer;
  }, quizId);
}

describe("the page as a study tool: a worksheet to print", () => {
  it("prints the questions, then the answer key on a page of its own, without the page's header, settings or buttons", async () => {
    for (const [locale, count, name] of [
      ["en-US", 1, "worksheet-en"],
      ["ko-KR", 8, "worksheet-ko"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, locale);
      await page.goto(`${session.served.url}/#/quiz?type=hangul_to_hanja&count=${count}`);
      const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
      await page.locator("button.for-sheet").click();
      const answer = (await (await drawn).json()) as { quizzes?: DrawnQuiz[]; quiz?: DrawnQuiz };
      const body = answer.quizzes ?? (answer.quiz ? [answer.quiz] : []);
      await page.locator(".worksheet").waitFor();
      expect(await page.locator(".sheet-questions > li").count()).toBe(count);
      const key = await page.locator(".answer-key li").allTextContents();
      expect(key.map((line) => line.slice(0, 1))).toEqual(body.map((quiz) => "①②③④⑤⑥"[Number(quiz.answer) - 1]));
      expect(await axe(page)).toEqual([]);
      await page.emulateMedia({ media: "print" });
      for (const hidden of ["header.top", "nav.main-nav", "details.quiz-settings", "section.review", ".note", ".worksheet .no-print"])
        expect(await page.locator(hidden).isVisible(), hidden).toBe(false);
      await shoot(page, `print-${name}`);
      const pdf = await page.pdf({ format: "A4", path: join(SCREENSHOTS, `${name}.pdf`) });
      const pages = pdf.toString("latin1").match(/\/Type\s*\/Page\b(?!s)/g) ?? [];
      // One question fits a page: the second page is the answer key's, which starts its own.
      if (count === 1) expect(pages).toHaveLength(2);
      else expect(pages.length).toBeGreaterThanOrEqual(2);
      expectClean(watch);
      await context.close();
    }
  });

  it("gives a character's answer with its first 훈음, an education hanja's 대표훈음 (北 북녘 북), after the reading asked", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "ko-KR");
    await page.goto(`${session.served.url}/#/quiz?type=hanja_to_reading&count=5`);
    const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
    await page.locator("button.for-sheet").click();
    const body = ((await (await drawn).json()) as { quizzes: DrawnQuiz[] }).quizzes;
    await page.locator(".worksheet").waitFor();
    const key = await page.locator(".answer-key li").allTextContents();
    expect(key).toHaveLength(5);
    body.forEach((quiz, i) => {
      const character = quiz.answer_character as { character: string; reading: string; hunum: string[] };
      expect(key[i]).toBe(`${"①②③④⑤⑥"[Number(quiz.answer) - 1]} ${character.reading} — ${character.character} (${character.hunum[0]})`);
    });
    expectClean(watch);
    await context.close();
  });
});

interface DrawnQuiz {
  answer: string;
  answer_character?: unknown;
}
