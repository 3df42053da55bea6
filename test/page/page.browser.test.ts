/**
 * The page in a real browser (Debian's Chromium through playwright-core): the flows a learner, a
 * teacher and a developer follow, keyboard-only use, languages, phone width, no console errors, no
 * request to another host, and an axe-core audit of every view and of /docs. Screenshots at
 * desktop and phone widths go to test-results/page/ (see the README).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/app.ts";
import { type Served, type Watch, launch, openPage, serve } from "./browser.ts";

/** Where the screenshots are written (git-ignored; named in the README). */
export const SCREENSHOTS = join(ROOT, "test-results/page");
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let browser: Browser;
let closeBrowser: () => Promise<void>;
let served: Served;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ browser, close: closeBrowser } = await launch());
  served = await serve();
});

afterAll(async () => {
  await closeBrowser?.();
  await served?.close();
});

/**
 * Nothing the tests forbid happened on the page. `expected` names statuses the test provoked on
 * purpose (a refused application, an exhausted quota) and network errors it provoked: Chromium logs
 * each as a console error of its own, and those alone are allowed.
 */
function expectClean(watch: Watch, expected: (number | string)[] = []): void {
  const provoked = (message: string) =>
    expected.some((what) => message.startsWith(typeof what === "number" ? `Failed to load resource: the server responded with a status of ${what} ` : `Failed to load resource: ${what}`));
  expect(watch.consoleErrors.filter((message) => !provoked(message))).toEqual([]);
  expect(watch.offOrigin).toEqual([]);
}

/** Runs axe-core on the page as it is now; returns the serious and critical violations. */
async function axe(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe("the page in Chromium", () => {
  it("looks up 水, follows it to 背水之陣 and back, with the request shown for developers", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    await page.goto(`${served.url}/`);
    await page.getByRole("searchbox", { name: "Reading, English, hangul gloss or code point" }).fill("water");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.url()).toContain("#/hanja?q=water");
    const result = page.getByRole("link", { name: /^水/ });
    await result.first().waitFor();
    await shoot(page, "desktop-search");
    await result.first().click();
    await page.getByRole("heading", { level: 1, name: /水/ }).waitFor();
    expect(page.url()).toContain(`#/hanja/${encodeURIComponent("水")}`);
    await page.getByText("water, liquid, lotion, juice").waitFor();
    await shoot(page, "desktop-character");
    // The developer's panel: the request as a URL and a curl command.
    await page.getByText("API request for developers").click();
    await expect.poll(() => page.locator("details.api code").first().textContent()).toBe(`${served.url}/hanja/v1/hanja/%E6%B0%B4`);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: served.url });
    await page.getByRole("button", { name: "Copy: curl" }).click();
    await page.getByRole("button", { name: "Copy: curl" }).getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`curl '${served.url}/hanja/v1/hanja/%E6%B0%B4'`);
    await page.getByRole("link", { name: /背水之陣/ }).click();
    await page.getByRole("heading", { level: 1, name: /背水之陣/ }).waitFor();
    await page.getByText("강물을 등지고 진을 친다는 뜻으로", { exact: false }).waitFor();
    await shoot(page, "desktop-idiom");
    // Each character of the idiom leads to its detail; Back returns to the character we came from.
    expect(await page.getByRole("link", { name: /^陣/ }).count()).toBe(1);
    await page.getByRole("button", { name: "← Back" }).click();
    await page.getByRole("heading", { level: 1, name: /水/ }).waitFor();
    await page.getByRole("link", { name: "← Back to search" }).click();
    await expect.poll(() => page.url()).toContain("#/hanja?q=water");
    await page.getByRole("link", { name: /^水/ }).first().waitFor();
    expectClean(watch);
    await context.close();
  });

  it("searches idioms by initial consonants and pages through character results with the filters", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    // A shared link to an idiom: its detail, with no Back (nothing of the page to go back to).
    await page.goto(`${served.url}/#/idiom/${encodeURIComponent("背水之陣")}`);
    await page.getByRole("heading", { level: 1, name: /背水之陣/ }).waitFor();
    await page.getByText("ㅂㅅㅈㅈ").waitFor();
    expect(await page.getByRole("button", { name: "← Back" }).count()).toBe(0);
    // The empty search offers examples to try.
    await page.goto(`${served.url}/`);
    await page.getByRole("link", { name: "U+6C34" }).click();
    await page.getByRole("link", { name: /^水/ }).waitFor();
    await page.goto(`${served.url}/#/idioms`);
    await page.getByRole("searchbox", { name: "Hanja, hangul, initial consonants or meaning" }).fill("ㅂㅅㅈㅈ");
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: /背水之陣/ }).waitFor();
    await page.goto(`${served.url}/#/hanja?q=%EC%88%98&strokes=4&education=1`);
    await page.getByRole("link", { name: /^水/ }).waitFor();
    expect(await page.getByRole("spinbutton", { name: "Strokes" }).inputValue()).toBe("4");
    expect(await page.getByRole("checkbox", { name: "Only education hanja" }).isChecked()).toBe(true);
    expect(await page.getByRole("link", { name: /^手/ }).count()).toBe(1);
    // A code point finds its character.
    await page.goto(`${served.url}/#/hanja?q=U%2B6C34`);
    await page.getByRole("heading", { name: "1 result" }).waitFor();
    expectClean(watch);
    await context.close();
  });

  it("shows loading and error states: the service's message for a bad filter, and a retry when the service cannot be reached", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    await page.goto(`${served.url}/#/hanja?q=water&strokes=99`);
    await page.getByRole("alert").getByText("strokes must be from 1 to 64; got 99").waitFor();
    // A call held, then failing at the network: "Loading…" first, then the message and a retry.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/hanja/v1/idioms?*", async (route) => {
      await held;
      await route.abort("connectionrefused");
    });
    await page.goto(`${served.url}/#/idioms?q=%EB%B0%B0%EC%88%98`);
    await page.locator("main").getByRole("status").getByText("Loading…").waitFor();
    release();
    await page.getByText("The service could not be reached. Check the connection and try again.").waitFor();
    await page.unroute("**/hanja/v1/idioms?*");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("link", { name: /背水之陣/ }).waitFor();
    expectClean(watch, [400, "net::ERR_CONNECTION_REFUSED"]);
    await context.close();
  });

  it("takes a five-question quiz drawn in one call: a right and a wrong answer, the answer idiom and a running score", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    await page.goto(`${served.url}/#/quiz`);
    await page.getByRole("combobox", { name: "Question type" }).selectOption("hangul_to_hanja");
    await page.getByRole("combobox", { name: "Choices per question" }).selectOption("3");
    await page.getByRole("spinbutton", { name: "Questions" }).fill("5");
    const drawn = page.waitForResponse((response) => response.url().includes("/quiz/v1/quiz"));
    await page.getByRole("button", { name: "Start quiz" }).click();
    const body = (await (await drawn).json()) as { quizzes: { answer: string; choices: { key: string; text: string }[]; answer_idiom: { hanja: string } }[] };
    expect(body.quizzes).toHaveLength(5);
    expect((await drawn).url()).toMatch(/quiz\?type=hangul_to_hanja&choices=3&count=5$/);
    expect(page.url()).toMatch(/#\/quiz\?type=hangul_to_hanja&choices=3&count=5$/);
    await page.getByText("Demo: 29 of 30 calls left today", { exact: false }).waitFor();
    await shoot(page, "desktop-quiz");
    for (const [i, quiz] of body.quizzes.entries()) {
      await page.getByText(`Question ${i + 1} of 5`).waitFor();
      const right = quiz.choices.find((c) => c.key === quiz.answer)!;
      const wrong = quiz.choices.find((c) => c.key !== quiz.answer)!;
      const pick = i === 1 ? wrong : right;
      await page.getByRole("button", { name: pick.text }).click();
      if (i === 1) await page.getByText(`Not quite — the answer is ${right.key}. ${right.text}.`).waitFor();
      else await page.getByText("Correct!").waitFor();
      await page.getByRole("link", { name: new RegExp(quiz.answer_idiom.hanja) }).waitFor();
      await page.getByText(`Score: ${i === 0 ? 1 : i} / ${i + 1}`).waitFor();
      if (i === 1) await shoot(page, "desktop-quiz-wrong");
      await page.getByRole("button", { name: i === 4 ? "See result" : "Next question" }).click();
    }
    await page.getByRole("heading", { name: "Finished: 4 of 5 right." }).waitFor();
    await shoot(page, "desktop-quiz-result");
    expectClean(watch);
    await context.close();
  });

  it("shows the way to a key when the demo quota is used up, and explains the class's shared quota", async () => {
    const exhausted = await serve();
    try {
      for (let i = 0; i < 30; i++) expect((await fetch(`${exhausted.url}/quiz/v1/quiz`)).status).toBe(200);
      const { page, context, watch } = await openPage(browser, exhausted.url);
      await page.goto(`${exhausted.url}/#/quiz?count=5`);
      await page.getByText("A class behind one school address shares one demo quota", { exact: false }).waitFor();
      await page.getByText("Demo: 0 of 30 calls left today", { exact: false }).waitFor();
      await page.getByRole("button", { name: "Start quiz" }).click();
      const alert = page.getByRole("alert");
      await alert.getByRole("heading", { name: "Today's demo quota is used up" }).waitFor();
      await alert.getByText("Calls are available again at", { exact: false }).waitFor();
      await shoot(page, "desktop-quiz-exhausted");
      await alert.getByRole("link", { name: "Enter or apply for an API key to go on" }).click();
      await page.getByRole("heading", { level: 1, name: "API key" }).waitFor();
      expectClean(watch, [429]);
      await context.close();
    } finally {
      await exhausted.close();
    }
  });

  it("validates the key application, shows the key once with the payment instructions, and keeps the key out of every URL", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    await page.goto(`${served.url}/#/key`);
    await page.getByRole("button", { name: "Apply" }).click();
    for (const name of ["Name", "E-mail", "Phone", "Name on the bank transfer"]) {
      const input = page.getByRole("textbox", { name, exact: true });
      expect(await input.getAttribute("aria-invalid"), name).toBe("true");
    }
    await page.getByText("Please correct the marked fields.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Kim Minji");
    await page.getByRole("textbox", { name: "E-mail" }).fill("not-an-address");
    await page.getByRole("textbox", { name: "Phone" }).fill("010-1234-5678");
    await page.getByRole("textbox", { name: "Name on the bank transfer" }).fill("김민지");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Enter an e-mail address like name@example.com.").waitFor();
    // The server's own checks name the field too: a phone number without digits.
    await page.getByRole("textbox", { name: "E-mail" }).fill("minji@example.com");
    await page.getByRole("textbox", { name: "Phone" }).fill("call me");
    const refused = page.waitForResponse((response) => response.url().endsWith("/quiz/v1/subscribe"));
    await page.getByRole("button", { name: "Apply" }).click();
    expect((await refused).status()).toBe(400);
    await expect.poll(() => page.getByRole("textbox", { name: "Phone" }).getAttribute("aria-invalid")).toBe("true");
    await page.getByRole("textbox", { name: "Phone" }).fill("010-1234-5678");
    const applied = page.waitForResponse((response) => response.url().endsWith("/quiz/v1/subscribe"));
    await page.getByRole("button", { name: "Apply" }).click();
    const key = ((await (await applied).json()) as { api_key: string }).api_key;
    await page.getByText(key).waitFor();
    await page.getByText("9,900 KRW", { exact: true }).waitFor();
    await page.getByText("Transfer reference (write it as the depositor name)").waitFor();
    // The key is in use in this tab at once: the status says so and the quota is the key's.
    await page.getByText("A key is in use in this tab.").waitFor();
    await page.getByText("Key (free): 100 of 100 calls left today").waitFor();
    expect(await page.getByLabel("API key (kept in this tab only)").inputValue()).toBe(key);
    await shoot(page, "desktop-key-applied");
    // The curl shown carries placeholders, not what was typed.
    const curl = await page.locator(".outcome details.api code").nth(1).textContent();
    expect(curl).toContain(`'{"name":"<name>","email":"<email>","phone":"<phone>","depositor":"<depositor>"}'`);
    expect(curl).not.toContain("minji");
    // The key is used for the tab: sent in X-API-Key, shown as a placeholder, never in a URL.
    await page.goto(`${served.url}/#/quiz`);
    const sent = page.waitForRequest((request) => request.url().includes("/quiz/v1/quiz"));
    await page.getByRole("button", { name: "Start quiz" }).click();
    expect((await sent).headers()["x-api-key"]).toBe(key);
    await page.getByText("Key (free): 99 of 100 calls left today").waitFor();
    await page.getByText("API request for developers").click();
    const quizCurl = await page.locator(".quiz-area details.api code").nth(1).textContent();
    expect(quizCurl).toContain('-H "X-API-Key: $HANJA_API_KEY"');
    for (const url of [...watch.requests, page.url()]) expect(url).not.toContain(key);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(key);
    expectClean(watch, [400]);
    await context.close();
  });

  it("can be used by keyboard alone, with a visible focus", async () => {
    const { page, context, watch } = await openPage(browser, served.url);
    await page.goto(`${served.url}/`);
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
    await page.goto(`${served.url}/#/quiz?count=2`);
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
    const { page, context, watch } = await openPage(browser, served.url, DESKTOP, "ko-KR");
    await page.goto(`${served.url}/#/hanja?q=water`);
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
    const { page, context, watch } = await openPage(browser, served.url, PHONE, "ko-KR");
    for (const [hash, name] of [
      ["#/hanja?q=%EC%88%98", "phone-search"],
      [`#/hanja/${encodeURIComponent("水")}`, "phone-character"],
      [`#/idiom/${encodeURIComponent("背水之陣")}`, "phone-idiom"],
      ["#/key", "phone-key"],
    ] as const) {
      await page.goto(`${served.url}/${hash}`);
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, name);
    }
    await page.goto(`${served.url}/#/quiz?count=3`);
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
      const { page, context, watch } = await openPage(browser, mounted.url);
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

  it("has no serious or critical axe-core violation on any view, nor on /docs", async () => {
    const { page, context } = await openPage(browser, served.url);
    const views = ["#/hanja?q=%EC%88%98", `#/hanja/${encodeURIComponent("水")}`, "#/idioms?q=%E3%84%B1%E3%84%B1", `#/idiom/${encodeURIComponent("背水之陣")}`, "#/quiz", "#/key"];
    const found: Record<string, unknown> = {};
    for (const hash of views) {
      await page.goto(`${served.url}/${hash}`);
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.locator("details.api").first().evaluate((d) => ((d as HTMLDetailsElement).open = true)).catch(() => {});
      const violations = await axe(page);
      if (violations.length > 0) found[hash] = violations;
    }
    await page.goto(`${served.url}/#/quiz?count=2`);
    await page.getByRole("button", { name: "Start quiz" }).click();
    await page.locator(".choice").first().click();
    await page.locator(".feedback").waitFor();
    const quiz = await axe(page);
    if (quiz.length > 0) found["quiz answered"] = quiz;
    await page.goto(`${served.url}/docs`);
    const docs = await axe(page);
    if (docs.length > 0) found["/docs"] = docs;
    await page.screenshot({ path: join(SCREENSHOTS, "desktop-docs.png") });
    console.log(`axe-core: serious or critical violations ${JSON.stringify(found)} on ${views.length + 2} views`);
    expect(found).toEqual({});
    await context.close();
  });
});
