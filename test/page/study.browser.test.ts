/**
 * The page as a study tool (issue #40), in a real browser: Korean typography, a quiz screen that
 * fits a phone, the quota line only where calls are metered, the key kept on a computer on request
 * and an application form that asks what the API asks. Screenshots go to test-results/page/.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { DESKTOP, PHONE, SCREENSHOTS, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

/** The computed value of a CSS property of the first element matching `selector`. */
function style(page: Page, selector: string, property: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

/** The font size in px of every element of `main` that holds text of its own, by its selector-like name. */
function textSizes(page: Page): Promise<{ name: string; size: number }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("main *")]
      .filter((element) => element.checkVisibility() && [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim()))
      .map((element) => ({ name: `${element.tagName.toLowerCase()}.${element.className}`, size: Number.parseFloat(getComputedStyle(element).fontSize) })),
  );
}

describe("the page as a study tool: typography", () => {
  it("breaks Korean between words, sets large hanja in a serif face and text in sans", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
    await page.locator("main details.api").waitFor();
    expect(await style(page, "main", "word-break")).toBe("keep-all");
    expect(await style(page, "main", "overflow-wrap")).toBe("anywhere");
    expect(await style(page, ".big-glyph", "font-family")).toMatch(/^"Noto Serif CJK KR"/);
    expect(await style(page, "dl.facts dd", "font-family")).toMatch(/^"Noto Sans CJK KR"/);
    // A long Latin word (the curl command) wraps inside the phone's width.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width); // No Korean word of the class note is cut at a line's end: no line starts between two syllables.
    await page.goto(`${session.served.url}/#/quiz`);
    const cut = await page.locator(".note p").evaluate((p) => {
      const text = p.firstChild as Text;
      const range = document.createRange();
      const broken: string[] = [];
      let top = -1;
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const y = range.getBoundingClientRect().top;
        if (top >= 0 && y > top + 4 && /[가-힣]{2}/.test(text.data.slice(i - 1, i + 1))) broken.push(text.data.slice(i - 2, i + 2));
        top = y;
      }
      return broken;
    });
    expect(cut).toEqual([]);
    await shoot(page, "phone-quiz-settings-ko");
    expectClean(watch);
    await context.close();
  });

  it("makes the question the largest text, folds the settings away and shows the question with six choices without scrolling at 390 × 844", async () => {
    for (const [type, locale] of [
      ["idiom_to_meaning", "ko-KR"],
      ["meaning_to_idiom", "en-US"],
      ["hanja_to_hunum", "ko-KR"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, locale);
      await page.goto(`${session.served.url}/#/quiz?type=${type}&choices=6&count=2`);
      const settings = page.locator("details.quiz-settings");
      expect(await settings.getAttribute("open")).toBe("");
      await page.locator(".quiz-form button[type=submit]").click();
      await page.locator(".choice").first().waitFor();
      expect(await settings.getAttribute("open"), type).toBeNull();
      const sizes = await textSizes(page);
      const prompt = sizes.find((s) => s.name.startsWith("p.prompt"));
      expect(prompt, type).toBeDefined();
      for (const other of sizes) if (other !== prompt) expect(other.size, `${type}: ${other.name}`).toBeLessThan(prompt?.size ?? 0);
      if (type === "hanja_to_hunum") expect(await style(page, ".prompt", "font-family")).toMatch(/^"Noto Serif CJK KR"/);
      // The prompt and all six choices are on the screen as the question comes, with no scrolling by the learner.
      const boxes = await page
        .locator(".prompt, .choice")
        .evaluateAll((all) => all.map((e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom]));
      expect(boxes).toHaveLength(7);
      for (const [top = -1, bottom = Infinity] of boxes) expect(top >= 0 && bottom <= PHONE.height, `${type}: ${top}–${bottom}`).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, `phone-quiz-${type}-${locale.slice(0, 2)}.png`) });
      expect(await axe(page), type).toEqual([]);
      // Another view in the middle of the quiz has its usual layout (the tagline back); Back resumes the quiz.
      expect(await page.locator("header.top p").isVisible()).toBe(false);
      await page.evaluate(() => (location.hash = "#/key"));
      await page.locator(".key-form").waitFor();
      expect(await page.locator("header.top p").isVisible()).toBe(true);
      await page.goBack();
      await page.locator(".choice").first().waitFor();
      // Answered, the feedback and the next button come; the settings open again at the end.
      await page.locator(".choice").first().click();
      await page.locator(".next").click();
      await page.locator(".choice").first().click();
      await page.locator(".next").click();
      await page.locator("h2.result").waitFor();
      expect(await settings.getAttribute("open")).toBe("");
      expectClean(watch);
      await context.close();
    }
  });
});

describe("the page as a study tool: less noise", () => {
  it("shows the quota line on the quiz alone, no internal idx, and the English meanings on the English page", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.goto(`${session.served.url}/#/quiz?count=1`);
    await page.getByRole("button", { name: "Start quiz" }).click();
    const quota = page.locator(".quota");
    await expect.poll(() => quota.textContent()).toMatch(/^Demo: \d+ of 30 calls left today/);
    expect(await quota.isVisible()).toBe(true);
    for (const hash of ["#/hanja?q=water", "#/idioms?q=%E3%85%82%E3%85%85%E3%85%88%E3%85%88", "#/key"]) {
      await page.evaluate((next) => (location.hash = next), hash);
      await page.locator("main details.api").first().waitFor();
      expect(await quota.isVisible(), hash).toBe(false);
    }
    await page.evaluate(() => (location.hash = "#/quiz?count=1"));
    await page.locator(".quiz-form").waitFor();
    expect(await quota.isVisible()).toBe(true);
    // The idiom search and the idiom's detail give the English meaning on the English page, and no idx.
    await page.goto(`${session.served.url}/#/idioms?q=${encodeURIComponent("背水之陣")}`);
    const english = page.locator(".idioms .meaning-en").first();
    await english.waitFor();
    expect(await english.getAttribute("lang")).toBe("en");
    expect(await english.textContent()).toMatch(/[a-z]{3}/);
    await page.goto(`${session.served.url}/#/idiom/${encodeURIComponent("背水之陣")}`);
    await page.locator("main details.api").waitFor();
    const terms = await page.locator("dl.facts dt").allTextContents();
    expect(terms).toContain("In English");
    expect(terms).not.toContain("idx");
    await shoot(page, "desktop-idiom-en");
    // The Korean page keeps to Korean in lists.
    await page.getByRole("combobox", { name: "Language" }).selectOption("ko");
    await page.goto(`${session.served.url}/#/idioms?q=${encodeURIComponent("背水之陣")}`);
    await page.locator(".idioms .meaning").first().waitFor();
    expect(await page.locator(".idioms .meaning-en").count()).toBe(0);
    expectClean(watch);
    await context.close();
  });
});

describe("the page as a study tool: the key and the form", () => {
  it("asks what the API asks, shows the new key at the top with a copy button and says what to write as the transfer's name, in Korean", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.goto(`${session.served.url}/#/key`);
    await page.getByRole("textbox", { name: "이름" }).fill("김민지");
    await page.getByRole("textbox", { name: "이메일" }).fill("minji@example.com");
    const sent = page.waitForRequest((request) => request.url().endsWith("/quiz/v1/subscribe"));
    await page.getByRole("button", { name: "신청" }).click();
    // The phone left empty is not sent: the API's schema requires the name and the e-mail alone.
    expect((await sent).postDataJSON()).toEqual({ name: "김민지", email: "minji@example.com" });
    const answer = (await (await (await sent).response())?.json()) as { api_key: string; payment: { reference: string } };
    const box = page.locator(".fresh-key .applied");
    await box.getByText(answer.api_key).waitFor();
    // At the top: above the key form, and focused on the first screen.
    const [boxTop, formTop] = await Promise.all([box, page.locator(".key-form")].map((l) => l.evaluate((e) => e.getBoundingClientRect().top)));
    expect(boxTop).toBeLessThan(formTop ?? 0);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("applied");
    await box.getByRole("button", { name: "복사: API 키" }).waitFor();
    const reference = answer.payment.reference;
    expect(reference).toMatch(/^HJ[0-9A-Z]{6}$/);
    expect(await box.textContent()).toContain(`이체할 때 입금자명 칸에 본인 이름 대신 ${reference}만 그대로 적으세요.`);
    await box.getByText("9,900원", { exact: true }).waitFor();
    await box.getByText("운영자가 아직 계좌를 알리지 않았습니다. 운영자에게 문의하세요.").waitFor();
    expect(await page.locator("main").textContent()).not.toContain("BANK_ACCOUNT");
    await shoot(page, "phone-key-applied-ko");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });

  it("remembers the key on this computer when asked, for a new tab, and forgets it", async () => {
    const response = await fetch(`${session.served.url}/quiz/v1/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Teacher", email: "teacher@example.com" }),
    });
    const key = ((await response.json()) as { api_key: string }).api_key;
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.goto(`${session.served.url}/#/key`);
    const remember = page.getByRole("checkbox", { name: "Remember on this computer" });
    expect(await remember.isChecked()).toBe(false);
    await page.getByLabel("API key", { exact: true }).fill(key);
    await remember.check();
    await page.getByRole("button", { name: "Use this key" }).click();
    await page.getByText("A key is in use, remembered on this computer.").waitFor();
    await shoot(page, "desktop-key-remembered");
    expect(await axe(page)).toEqual([]);
    // A new tab (its own sessionStorage) of the same browser has the key and sends it.
    const tab = await context.newPage();
    await tab.goto(`${session.served.url}/#/key`);
    await tab.getByText("A key is in use, remembered on this computer.").waitFor();
    expect(await tab.getByRole("checkbox", { name: "Remember on this computer" }).isChecked()).toBe(true);
    await tab.goto(`${session.served.url}/#/quiz?count=1`);
    const sent = tab.waitForRequest((request) => request.url().includes("/quiz/v1/quiz"));
    await tab.getByRole("button", { name: "Start quiz" }).click();
    expect((await sent).headers()["x-api-key"]).toBe(key);
    // Forget: gone from this computer; a new tab uses the demo.
    await tab.goto(`${session.served.url}/#/key`);
    await tab.getByRole("button", { name: "Forget key" }).click();
    await tab.getByText("No key: the shared demo quota is used.").waitFor();
    expect(await tab.evaluate(() => JSON.stringify(localStorage))).not.toContain(key);
    const third = await context.newPage();
    await third.goto(`${session.served.url}/#/key`);
    await third.getByText("No key: the shared demo quota is used.").waitFor();
    expectClean(watch);
    await context.close();
  });
});
