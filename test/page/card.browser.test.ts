/**
 * The character card and the radicals (issue #40 point 2), in a real browser: the card's parts for
 * 水 and 樂, compatibility ideographs told apart from their unified forms, the radical as a link to
 * its characters, and the 214 radicals by strokes, at a phone's and a desktop's width, by keyboard.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

/** The card's facts as "term: value" lines. */
async function facts(page: Page): Promise<string[]> {
  return page.locator(".char-card dl.facts dt").evaluateAll((terms) => terms.map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`));
}

/** Presses Tab until `name` has the focus (at most `limit` times): what a keyboard user does. */
async function tabTo(page: Page, name: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    if ((await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent)) === name) return;
  }
  throw new Error(`${name} not reached in ${limit} presses of Tab`);
}

describe("the page in Chromium: the character card and the radicals", () => {
  it("shows 水 as a card with each part, and its radical leads by keyboard to the radical's characters", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
    const card = page.locator("article.char-card");
    await card.locator("h1 .big-glyph").getByText("水").waitFor();
    // The first 훈음 beside the glyph; every one of them in the facts.
    expect(await card.locator("h1 .sub").textContent()).toBe("물 수 …");
    const lines = await facts(page);
    expect(lines).toContain("Readings: 수");
    expect(lines).toContain("Strokes: 4");
    expect(lines).toContain("Radical: 水 (85)");
    expect(lines.find((line) => line.startsWith("훈음"))).toContain("물 수, 고를 수");
    // Not a compatibility ideograph: no such mark.
    expect(await page.locator(".compat").count()).toBe(0);
    expect(await page.locator("ul.words li").count()).toBeGreaterThan(0);
    await page.getByRole("link", { name: /背水之陣/ }).waitFor();
    // The serif face the page sets for hanja, at a size a learner reads strokes in.
    const glyph = await card
      .locator(".big-glyph")
      .evaluate((e) => ({ size: Number.parseFloat(getComputedStyle(e).fontSize), family: getComputedStyle(e).fontFamily }));
    expect(glyph.size).toBeGreaterThanOrEqual(72);
    expect(glyph.family).toMatch(/Serif/i);
    await shoot(page, "desktop-character-card");
    expect(await axe(page)).toEqual([]);
    await tabTo(page, "水 (85)");
    const listed = page.waitForResponse((r) => r.url().includes("/hanja/v1/hanja?") && r.url().includes("radical_number=85"));
    await page.keyboard.press("Enter");
    await expect.poll(() => page.url()).toContain("#/hanja?radical_number=85");
    const body = (await (await listed).json()) as { data: { character: string; radical_number: number }[]; total: number };
    expect(await page.getByRole("spinbutton", { name: "Radical number (1–214)" }).inputValue()).toBe("85");
    await page.getByRole("heading", { level: 2, name: /results$/ }).waitFor();
    await page.getByRole("link", { name: /^水/ }).first().waitFor();
    // The radical's characters, as the search's filter lists them: every one has radical 85.
    expect(body.total).toBeGreaterThan(100);
    expect(body.data.every((c) => c.radical_number === 85)).toBe(true);
    expect(await page.locator("ul.cards .glyph").allTextContents()).toEqual(body.data.map((c) => c.character));
    expectClean(watch);
    await context.close();
  });

  it("marks compatibility ideographs in results and on the card, in Korean on a phone, and shows 樂's every part", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.goto(`${session.served.url}/#/hanja?q=water`);
    await page.locator("ul.cards").waitFor();
    // 菱 U+83F1 and 菱 U+F958 both answer "water": the second says which it is.
    const marks = await page.locator("ul.cards .compat").allTextContents();
    expect(marks).toContain("호환 한자 U+F958 — 같은 글자: 菱 U+83F1");
    expect(marks).toContain("호환 한자 U+F992 — 같은 글자: 漣 U+6F23");
    const glyphs = await page.locator("ul.cards .glyph").allTextContents();
    expect(glyphs).toEqual(expect.arrayContaining(["\u83F1", "\uF958", "\u6F23", "\uF992"]));
    expect(marks).toHaveLength(glyphs.filter((g) => g !== g.normalize("NFC")).length);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "phone-results-compat-ko");
    expect(await axe(page)).toEqual([]);
    // 樂 U+F914 on its card: marked, with a link to 樂 U+6A02.
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("\uF914")}`);
    await page.locator(".char-card .compat").getByText("호환 한자 U+F914 — 같은 글자:", { exact: false }).waitFor();
    expect(await page.locator(".char-card .compat").textContent()).toBe("호환 한자 U+F914 — 같은 글자: 樂 U+6A02");
    await shoot(page, "phone-character-compat-ko");
    await page.locator(".char-card .compat a").click();
    await expect.poll(() => page.url()).toContain(`#/hanja/${encodeURIComponent("\u6A02")}`);
    // Its 대표훈음 first (즐길 락), then the dictionary's 훈음 in their order.
    await expect.poll(() => page.locator(".char-card h1 .sub").textContent()).toBe("즐길 락 …");
    expect(await page.locator(".char-card .compat").count()).toBe(0);
    await page.locator(".char-card dl.facts").waitFor();
    const lines = await facts(page);
    expect(lines.find((line) => line.startsWith("훈음"))).toContain("즐길 락, 즐길 낙, 즐거울 락, 풍류 악, 좋아할 요");
    expect(lines).toContain("음: 락, 낙, 악, 요");
    expect(lines).toContain("부수: 木 (75)");
    expect(lines).toContain("획수: 15");
    await page.getByRole("link", { name: "木 (75)" }).waitFor();
    expect(await page.locator("ul.words li").count()).toBeGreaterThan(0);
    expect(await page.locator("ul.idioms li").count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "phone-character-card-ko");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });

  it("lists the 214 radicals by strokes at both widths and in both languages, each leading to its characters", async () => {
    for (const [viewport, locale, name] of [
      [PHONE, "ko-KR", "phone-radicals-ko"],
      [DESKTOP, "en-US", "desktop-radicals"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      await page.goto(`${session.served.url}/`);
      await page.getByRole("link", { name: locale === "en-US" ? "Browse by radical →" : "부수로 찾기 →" }).click();
      await expect.poll(() => page.url()).toContain("#/radicals");
      await page.locator("ul.radicals a").first().waitFor();
      expect(await page.locator("ul.radicals a").count()).toBe(214);
      const groups = await page.locator(".radical-group h2").allTextContents();
      expect(groups[0]).toBe(locale === "en-US" ? "1 stroke" : "1획");
      // Every stroke count once, fewest first.
      const counts = groups.map((g) => Number.parseInt(g, 10));
      expect(counts).toEqual([...new Set(counts)].sort((a, b) => a - b));
      expect(counts.length).toBeGreaterThan(10);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shoot(page, name);
      expect(await axe(page)).toEqual([]);
      const water = locale === "en-US" ? /^水 85 — radical 85, [\d,]+ characters$/ : /^水 85 — 85번 부수, 한자 [\d,]+자$/;
      const label = (await page.getByRole("link", { name: water }).getAttribute("aria-label")) ?? "";
      await tabTo(page, label, 150);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.url()).toContain("#/hanja?radical_number=85");
      await page.getByRole("link", { name: /^水/ }).first().waitFor();
      expectClean(watch);
      await context.close();
    }
  });
});
