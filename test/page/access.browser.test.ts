/**
 * The page for everyone, in a real browser: keyboard alone, Korean and English, phone width, a
 * mount path, and an axe-core audit of every view and of /docs.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, SCREENSHOTS, axe, expectClean, openPage, serve, shoot, useSession } from "./browser.ts";

const session = useSession();

describe("the page in Chromium: access", () => {
  it("can be used by keyboard alone, with a visible focus", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe("solid");
    // Tab to the search box and search with Enter.
    for (let i = 0; i < 12 && (await page.evaluate(() => document.activeElement?.getAttribute("name"))) !== "q"; i++) await page.keyboard.press("Tab");
    await page.keyboard.type("물");
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: /^水/ }).waitFor();
    // Focus moved to the results' heading; the next Tab reaches the first result.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H2");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: /\S/ }).waitFor();
    expect(page.url()).toMatch(/#\/hanja\/%/);
    // The quiz by keyboard: start with Enter, answer with Space, go on with Enter.
    await page.goto(`${session.served.url}/#/quiz?count=2`);
    await page.getByRole("button", { name: "Start quiz" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Question 1 of 2").waitFor();
    for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.classList.contains("choice"))); i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await page.getByText(/Correct!|Not quite/).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Next question");
    await page.keyboard.press("Enter");
    await page.getByText("Question 2 of 2").waitFor();
    expectClean(watch);
    await context.close();
  });

  it("speaks Korean to a Korean browser and switches language on request", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "ko-KR");
    await page.goto(`${session.served.url}/#/hanja?q=water`);
    await page.getByRole("heading", { level: 1, name: "한자" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("ko");
    await page.getByRole("link", { name: /^水/ }).waitFor();
    // Korean text is drawn in a Korean font (fonts-noto-cjk), from the machine, not the network.
    const font = await page.evaluate(() => getComputedStyle(document.querySelector("h1")!).fontFamily);
    expect(font).toContain("Noto Sans CJK KR");
    await shoot(page, "desktop-search-ko");
    await page.getByRole("combobox", { name: "언어" }).selectOption("en");
    await page.getByRole("heading", { level: 1, name: "Characters" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expectClean(watch);
    await context.close();
  });

  it("fits a phone-width screen", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    for (const [hash, name] of [
      ["#/hanja?q=%EC%88%98", "phone-search"],
      [`#/hanja/${encodeURIComponent("水")}`, "phone-character"],
      [`#/idiom/${encodeURIComponent("背水之陣")}`, "phone-idiom"],
      ["#/key", "phone-key"],
    ] as const) {
      await page.goto(`${session.served.url}/${hash}`);
      // Every view, once its call has been answered, shows that call in a developer's panel.
      await page.locator("main details.api").first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, name);
    }
    await page.goto(`${session.served.url}/#/quiz?count=3`);
    await page.getByRole("button", { name: "퀴즈 시작" }).click();
    await page.locator(".choice").first().click();
    await page.locator(".feedback").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "phone-quiz");
    expectClean(watch);
    await context.close();
  });

  it("works under a mount path (MOUNT_PATH), through a host that strips it", async () => {
    const mounted = await serve({ mountPath: "/lexicon" }, "/lexicon");
    try {
      const { page, context, watch } = await openPage(session.browser, mounted.url);
      await page.goto(`${mounted.url}/#/hanja?q=water`);
      await page.getByRole("link", { name: /^水/ }).first().click();
      await page.getByText("water, liquid, lotion, juice").waitFor();
      expect(await page.getByRole("link", { name: "API reference" }).getAttribute("href")).toBe("/lexicon/docs");
      expect(watch.requests.every((url) => new URL(url).pathname.startsWith("/lexicon/"))).toBe(true);
      expectClean(watch);
      await context.close();
    } finally {
      await mounted.close();
    }
  });

  // axe-core takes seconds on the long /docs; on a busy shared machine far more, hence the long timeouts.
  it("has no serious or critical axe-core violation on any view of the page", async () => {
    const { page, context } = await openPage(session.browser, session.served.url);
    // Each view with what shows it is ready: the developer's panel of its call, or the quiz's form (which calls nothing).
    const views = [
      ["#/hanja?q=%EC%88%98", "main details.api"],
      [`#/hanja/${encodeURIComponent("水")}`, "main details.api"],
      ["#/idioms?q=%E3%84%B1%E3%84%B1", "main details.api"],
      [`#/idiom/${encodeURIComponent("背水之陣")}`, "main details.api"],
      ["#/quiz", "main .quiz-form"],
      ["#/key", "main details.api"],
      ["#/class", "main .key-form"],
      [`#/read?text=${encodeURIComponent("大韓民國은 背水之陣의 的")}`, "main details.api"],
    ] as const;
    const found: Record<string, unknown> = {};
    for (const [hash, ready] of views) {
      await page.goto(`${session.served.url}/${hash}`);
      await page.locator(ready).first().waitFor();
      // The developer's panels open, so that what they hold is audited too.
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
      const violations = await axe(page);
      if (violations.length > 0) found[hash] = violations;
    }
    await page.goto(`${session.served.url}/#/quiz?count=2`);
    await page.getByRole("button", { name: "Start quiz" }).click();
    await page.locator(".choice").first().click();
    await page.locator(".feedback").waitFor();
    const quiz = await axe(page);
    if (quiz.length > 0) found["quiz answered"] = quiz;
    console.log(`axe-core: serious or critical violations ${JSON.stringify(found)} on ${views.length + 1} views of the page`);
    expect(found).toEqual({});
    await context.close();
  }, 180_000);

  it("has no serious or critical axe-core violation on /docs", async () => {
    const { page, context } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/docs`);
    const violations = await axe(page);
    await page.screenshot({ path: join(SCREENSHOTS, "desktop-docs.png") });
    console.log(`axe-core: serious or critical violations on /docs ${JSON.stringify(violations)}`);
    expect(violations).toEqual([]);
    await context.close();
  }, 180_000);
});
