/**
 * School levels on the page, in a real browser: the search's school-level filter (중학교용 /
 * 고등학교용) in Korean on a phone and in English at a desk, the level on a character's card, and
 * the quiz settings' middle- and high-school pools. Screenshots go to test-results/page/.
 */
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

describe("the page: school levels", () => {
  it("filters the search by school level, in Korean on a phone and in English at a desk, and shows the level on the card", async () => {
    for (const [viewport, locale, labels] of [
      [PHONE, "ko-KR", { search: "검색", level: "학교급", high: "고등학교용 (900자)", results: "900개", card: "학교급고등학교용", any: "전체" }],
      [
        DESKTOP,
        "en-US",
        {
          search: "Search",
          level: "School level",
          high: "High school (900)",
          results: "900 results",
          card: "School levelHigh school (고등학교용)",
          any: "Any",
        },
      ],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      await page.goto(`${session.served.url}/`);
      const select = page.getByRole("combobox", { name: labels.level });
      expect(await select.locator("option").allTextContents()).toEqual([labels.any, expect.stringMatching(/900/), labels.high]);
      await select.selectOption("high");
      await page.getByRole("button", { name: labels.search, exact: true }).click();
      await expect.poll(() => page.url()).toContain("#/hanja?school_level=high");
      await page.getByRole("heading", { level: 2, name: labels.results }).waitFor();
      // The filter stays chosen on the results, and every card is a high-school character (丈 U+4E08 first in code point order).
      expect(await select.inputValue()).toBe("high");
      await expect.poll(() => page.locator("a.card .glyph").first().textContent()).toBe("丈");
      await shoot(page, `${viewport === PHONE ? "phone" : "desktop"}-school-level-${locale.slice(0, 2)}`);
      expect(await axe(page)).toEqual([]);
      await page.locator("a.card").first().click();
      await page.getByRole("heading", { level: 1, name: /丈/ }).waitFor();
      await expect.poll(async () => (await page.locator("dl.facts").textContent()) ?? "").toContain(labels.card);
      expectClean(watch);
      await context.close();
    }
  });

  it("lists a school level in 가나다 order of the reading when the order asks for it, as the API's sort=reading does", async () => {
    for (const [viewport, locale, labels] of [
      [PHONE, "ko-KR", { search: "검색", order: "순서", reading: "음 가나다순", options: ["기본", "음 가나다순", "획수순"] }],
      [DESKTOP, "en-US", { search: "Search", order: "Order", reading: "By reading (가나다)", options: ["Best match", "By reading (가나다)", "By strokes"] }],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      await page.goto(`${session.served.url}/#/hanja?school_level=middle`);
      await expect.poll(() => page.locator("a.card .glyph").first().textContent()).toBe("一");
      const order = page.getByRole("combobox", { name: labels.order });
      expect(await order.locator("option").allTextContents()).toEqual(labels.options);
      await order.selectOption({ label: labels.reading });
      await page.getByRole("button", { name: labels.search, exact: true }).click();
      await expect.poll(() => page.url()).toContain("#/hanja?school_level=middle&sort=reading");
      const api = (await (await fetch(`${session.served.url}/hanja/v1/hanja?school_level=middle&sort=reading&per_page=24`)).json()) as {
        data: { character: string }[];
      };
      expect(api.data.slice(0, 4).map((r) => r.character)).toEqual([..."加可佳家"]);
      await expect.poll(() => page.locator("a.card .glyph").allTextContents()).toEqual(api.data.map((r) => r.character));
      expect(await order.inputValue()).toBe("reading");
      await shoot(page, `${viewport === PHONE ? "phone" : "desktop"}-school-level-by-reading-${locale.slice(0, 2)}`);
      expect(await axe(page)).toEqual([]);
      expectClean(watch);
      await context.close();
    }
  });

  it("draws a quiz from the middle-school characters when the settings ask for them", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await page.goto(`${session.served.url}/#/quiz`);
    const level = page.getByRole("combobox", { name: "Characters asked" });
    expect(await level.locator("option").allTextContents()).toEqual([
      "Education hanja (1,800)",
      "Middle-school hanja (900)",
      "High-school hanja (900)",
      "Name hanja",
      "Every character with a 훈음",
    ]);
    await page.getByRole("combobox", { name: "Question type" }).selectOption("hanja_to_hunum");
    await level.selectOption("middle");
    const response = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
    await page.locator(".quiz-form button[type=submit]").click();
    const url = new URL((await response).url());
    expect(url.searchParams.get("level")).toBe("middle");
    expect((await response).status()).toBe(200);
    expectClean(watch);
    await context.close();
  });
});
