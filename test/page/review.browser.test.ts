/**
 * Study on this device (issue #40), in a real browser: missed questions kept in localStorage when
 * the learner opts in, brought back on a spaced schedule, reviewed without a call, exported to a
 * file, cleared and imported again. The page's clock is Playwright's, so "later" needs no waiting.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

interface DrawnQuiz {
  prompt: string;
  answer: string;
  choices: { key: string; text: string }[];
}

/** Draws a quiz with the form and answers it: `right[i]` says whether question i is answered right. */
async function takeQuiz(page: Page, right: boolean[]): Promise<DrawnQuiz[]> {
  const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
  await page.locator(".quiz-form button[type=submit]").click();
  const quizzes = ((await (await drawn).json()) as { quizzes: DrawnQuiz[] }).quizzes;
  for (const [i, quiz] of quizzes.entries()) {
    const pick = right[i] ? quiz.answer : (quiz.choices.find((c) => c.key !== quiz.answer)?.key ?? "");
    await page
      .locator(".choice")
      .nth(Number(pick) - 1)
      .click();
    await page.locator(".next").click();
  }
  await page.locator("h2.result").waitFor();
  return quizzes;
}

const stored = (page: Page) => page.evaluate(() => localStorage.getItem("hanja-page-review"));

describe("the page as a study tool: review on this device", () => {
  it("keeps missed questions only when asked, brings them back later, reviews them without a call, and exports, clears and imports the list", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.clock.install({ time: new Date("2026-03-02T09:00:00Z") });
    await page.goto(`${session.served.url}/#/quiz?type=hangul_to_hanja&choices=3&count=2`);
    const count = page.locator(".review-count");
    // Not opted in: a miss is not kept.
    await takeQuiz(page, [false, false]);
    expect(await stored(page)).toBeNull();
    await page.getByRole("checkbox", { name: "Keep the questions I miss on this device, for review" }).check();
    const [missed] = await takeQuiz(page, [false, true]);
    // Missed a moment ago: in the list, due again in a few minutes.
    await expect.poll(() => count.textContent()).toBe("0 due now, 1 in the list.");
    await page.clock.fastForward("10:00");
    await page.evaluate(() => (location.hash = "#/quiz"));
    await expect.poll(() => count.textContent()).toBe("1 due now, 1 in the list.");
    await shoot(page, "desktop-review-due");
    expect(await axe(page)).toEqual([]);
    const before = watch.requests.length;
    await page.getByRole("button", { name: "Review now" }).click();
    expect(await page.locator(".prompt").textContent()).toBe(missed?.prompt);
    await page
      .locator(".choice")
      .nth(Number(missed?.answer) - 1)
      .click();
    await page.getByText("Correct!").waitFor();
    await page.getByRole("button", { name: "See result" }).click();
    await page.getByRole("heading", { name: "Finished: 1 of 1 right." }).waitFor();
    expect(watch.requests.slice(before)).toEqual([]);
    // Right this time: further off, still in the list.
    await expect.poll(() => count.textContent()).toBe("0 due now, 1 in the list.");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export the list" }).click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, "utf8")) as { items: { quiz: { prompt: string } }[] };
    expect(exported.items.map((item) => item.quiz.prompt)).toEqual([missed?.prompt]);
    await page.getByRole("button", { name: "Clear the list" }).click();
    await expect.poll(() => count.textContent()).toBe("0 due now, 0 in the list.");
    expect(await stored(page)).toBeNull();
    await page.getByLabel("Import a list").setInputFiles({ name: "list.json", mimeType: "application/json", buffer: Buffer.from('{"items":[]}') });
    await page.getByText("This file is not a review list exported from this page.").waitFor();
    await page.getByLabel("Import a list").setInputFiles(file);
    await page.getByText("1 question added.").waitFor();
    await expect.poll(() => count.textContent()).toBe("0 due now, 1 in the list.");
    expectClean(watch);
    await context.close();
  });

  it("offers the same in Korean on a phone, by keyboard", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.goto(`${session.served.url}/#/quiz`);
    const keep = page.getByRole("checkbox", { name: "틀린 문제를 복습하도록 이 기기에 남기기" });
    await keep.focus();
    await page.keyboard.press("Space");
    expect(await keep.isChecked()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("hanja-page-review-on"))).toBe("1");
    await page.locator(".review-count").getByText("지금 복습할 문제 0개, 목록에 0개.").waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("label")?.textContent)).toBe("목록 가져오기");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "phone-review-ko");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });
});
