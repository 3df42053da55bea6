/**
 * The worksheet as Chromium prints it to PDF on A4: where each question lands is read from the
 * PDF itself. A link is put at the start and at the end of each question (and at the answer key's
 * heading) before printing; Chromium writes each link as an annotation of the page it is printed
 * on, so the pages' annotations tell on which page each question starts and ends.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, SCREENSHOTS, expectClean, markedPages, openPage, useSession } from "./browser.ts";

const session = useSession();

/** The counts of questions printed, the smallest and largest a worksheet has and those around a page's end. */
const COUNTS = [1, 2, 5, 9, 10, 11, 20] as const;
/** The quizzes are drawn with a seed, so that each count prints the same questions every run. */
const SEED = 49;

/** On which page (from 0) each question starts and ends, on which the answer key starts, and how many pages there are. */
interface Printed {
  pages: number;
  questions: { first: number; last: number }[];
  key: number;
}

/** Marks each question's first and last line and the answer key's heading with links, prints A4 and reads the pages' links. */
async function printAndLocate(page: Page, path: string): Promise<Printed> {
  await page.evaluate(() => {
    const mark = (element: Element | null | undefined, href: string, where: "prepend" | "append") => {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = ".";
      link.style.color = "transparent";
      element?.[where](link);
    };
    for (const [i, question] of document.querySelectorAll(".sheet-questions > li").entries()) {
      mark(question.querySelector(".sheet-prompt"), `https://mark.invalid/q${i}/first`, "prepend");
      mark(question.querySelector(".sheet-choices > li:last-child"), `https://mark.invalid/q${i}/last`, "append");
    }
    mark(document.querySelector(".answer-key h2"), "https://mark.invalid/key/first", "prepend");
  });
  const { pages, onPage } = markedPages(await page.pdf({ format: "A4", path }));
  const count = await page.locator(".sheet-questions > li").count();
  const at = (uri: string) => onPage.get(uri) ?? Number.NaN;
  return {
    pages,
    questions: Array.from({ length: count }, (_, i) => ({ first: at(`q${i}/first`), last: at(`q${i}/last`) })),
    key: at("key/first"),
  };
}

describe("the page as a study tool: a worksheet printed on A4", () => {
  it("never leaves a question alone on a page nor splits one across pages, and prints the answer key on a page of its own", async () => {
    const figures: string[] = [];
    for (const locale of ["ko-KR", "en-US"] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, locale);
      for (const count of COUNTS) {
        await page.goto(`${session.served.url}/#/quiz?count=${count}&seed=${SEED}`);
        await page.locator("button.for-sheet").click();
        await page.locator(".worksheet").waitFor();
        expect(await page.locator(".sheet-questions > li").count()).toBe(count);
        const printed = await printAndLocate(page, join(SCREENSHOTS, `worksheet-${locale.slice(0, 2)}-${count}.pdf`));
        const where = `${locale}, ${count} questions: ${JSON.stringify(printed)}`;
        // Each question starts and ends on the same page, in order.
        for (const [i, { first, last }] of printed.questions.entries()) {
          expect.soft(first, where).toBe(last);
          expect.soft(first, where).toBeGreaterThanOrEqual(printed.questions[i - 1]?.last ?? 0);
        }
        const perPage = new Map<number, number>();
        for (const { first } of printed.questions) perPage.set(first, (perPage.get(first) ?? 0) + 1);
        if (count > 1)
          expect
            .soft(
              [...perPage.values()].filter((n) => n === 1),
              where,
            )
            .toEqual([]);
        // The answer key starts the page after the last question's, and is all that follows.
        expect.soft(printed.key, where).toBe((printed.questions.at(-1)?.last ?? Number.NaN) + 1);
        expect.soft(printed.pages, where).toBeGreaterThan(printed.key);
        figures.push(`${locale} ${count}: ${printed.key} page(s) of questions [${[...perPage.values()].join(", ")}], ${printed.pages} in all`);
      }
      expectClean(watch);
      await context.close();
    }
    console.log(figures.join("\n"));
  });
});
