/**
 * The card's stroke order (issue #50 point 3), in a real browser: the strokes are fetched when the
 * learner asks for them (not with the card), drawn in order, stepped back and forth and replayed; a
 * Chinese or Japanese form says so (KanjiVG's centre lines drawn as lines); a character without strokes
 * offers nothing. Desktop in English, phone in Korean.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

/** The drawing's strokes, each as its class (`drawn`, `current`, `pending`). */
const states = (page: Page) => page.locator("svg.stroke-drawing path").evaluateAll((paths) => paths.map((p) => p.getAttribute("class")));

describe("the page in Chromium: the card's stroke order", () => {
  it("水: fetched on asking, four strokes drawn in order, stepped and replayed; no note for the Korean form", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
    await page.locator("article.char-card h1 .big-glyph").getByText("水").waitFor();
    expect(watch.requests.filter((url) => url.includes("/strokes"))).toEqual([]);
    const fetched = page.waitForResponse((r) => r.url().endsWith(`/hanja/v1/hanja/${encodeURIComponent("水")}/strokes`));
    await page.getByRole("button", { name: "Show the stroke order" }).click();
    expect((await fetched).status()).toBe(200);
    await page.locator("svg.stroke-drawing").waitFor();
    expect(await states(page)).toEqual(["drawn", "drawn", "drawn", "current"]);
    expect(await page.locator(".stroke-count").textContent()).toBe("Stroke 4 of 4");
    expect(await page.locator(".stroke-note").count()).toBe(0);
    await page.getByRole("button", { name: "Previous stroke" }).click();
    await page.getByRole("button", { name: "Previous stroke" }).click();
    expect(await states(page)).toEqual(["drawn", "current", "pending", "pending"]);
    expect(await page.locator(".stroke-count").textContent()).toBe("Stroke 2 of 4");
    await page.getByRole("button", { name: "Next stroke" }).click();
    expect(await page.locator(".stroke-count").textContent()).toBe("Stroke 3 of 4");
    // Replay starts from the first stroke and ends on the last.
    await page.getByRole("button", { name: "Replay" }).click();
    expect(await page.locator(".stroke-count").textContent()).toBe("Stroke 1 of 4");
    await expect.poll(() => page.locator(".stroke-count").textContent(), { timeout: 5000 }).toBe("Stroke 4 of 4");
    expect(await page.locator(".strokes").getByRole("link", { name: "animCJK" }).getAttribute("href")).toBe("https://github.com/parsimonhi/animCJK");
    await shoot(page, "desktop-character-card-strokes");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });

  it("丁 on a phone in Korean: the Chinese form says so; 卽, without strokes, offers none", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("丁")}`);
    await page.getByRole("button", { name: "획순 보기" }).click();
    await page.locator("svg.stroke-drawing").waitFor();
    expect(await page.locator(".stroke-note").textContent()).toBe("중국 자형의 획순입니다(Make Me a Hanzi). 한국에서 가르치는 획순과 다를 수 있습니다.");
    expect(await page.locator(".stroke-count").textContent()).toBe("2획 중 2획");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shoot(page, "phone-character-card-strokes-ko");
    expect(await axe(page)).toEqual([]);
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("卽")}`);
    await page.locator("article.char-card h1 .big-glyph").getByText("卽").waitFor();
    expect(await page.locator(".strokes").count()).toBe(0);
    expectClean(watch);
    await context.close();
  });

  it("値, a Japanese form (KanjiVG): drawn as lines of a set width in order, the note says Japanese, KanjiVG linked", async () => {
    for (const [viewport, locale, note, count] of [
      [
        DESKTOP,
        "en-US",
        "This is the Japanese form's stroke order (KanjiVG), drawn as centre lines: the form and order taught in Korea may differ.",
        "Stroke 10 of 10",
      ],
      [PHONE, "ko-KR", "일본 자형의 획순입니다(KanjiVG, 획의 중심선). 한국에서 가르치는 자형·획순과 다를 수 있습니다.", "10획 중 10획"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("値")}`);
      await page.locator(".strokes button").click();
      await page.locator("svg.stroke-drawing").waitFor();
      expect(await page.locator(".stroke-note").textContent()).toBe(note);
      expect(await page.locator(".stroke-count").textContent()).toBe(count);
      // Lines, not filled shapes: no fill, a round-capped stroke of the set width, the current one red.
      const drawn = await page.locator("svg.stroke-drawing path").evaluateAll((paths) =>
        paths.map((p) => {
          const style = getComputedStyle(p);
          return { fill: style.fill, width: style.strokeWidth, cap: style.strokeLinecap, stroke: style.stroke, d: p.getAttribute("d") ?? "" };
        }),
      );
      expect(drawn).toHaveLength(10);
      for (const path of drawn) expect(path).toMatchObject({ fill: "none", width: "56px", cap: "round" });
      expect(drawn[9]?.stroke).toBe("rgb(192, 57, 43)");
      expect(drawn[0]?.d).toMatch(/^M329 754L/);
      expect(await page.locator(".strokes").getByRole("link", { name: "KanjiVG" }).getAttribute("href")).toBe("https://kanjivg.tagaini.net");
      await page.locator(".strokes").getByRole("button").first().click();
      expect(await states(page)).toEqual(["drawn", "drawn", "drawn", "drawn", "drawn", "drawn", "drawn", "drawn", "current", "pending"]);
      if (viewport === PHONE) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, viewport === PHONE ? "phone-character-card-strokes-ja-ko" : "desktop-character-card-strokes-ja-en");
      expect(await axe(page)).toEqual([]);
      expectClean(watch);
      await context.close();
    }
  });
});
