/**
 * The words' English meanings on the page, in a real browser: the English page shows a word's
 * `meaning_en` after its reading; the Korean page leaves it out.
 */
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

describe("the page: English meanings of words", () => {
  it("shows a word's English meaning on the English page only", async () => {
    for (const [viewport, locale] of [
      [DESKTOP, "en-US"],
      [PHONE, "ko-KR"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      await page.goto(`${session.served.url}/#/words?char=${encodeURIComponent("水")}`);
      await page.locator("ul.words li").first().waitFor();
      const first = (await page.locator("ul.words li").first().textContent()) ?? "";
      if (locale === "en-US") {
        expect(first).toBe("水道 수도 (수돗) — water supply; waterworks (municipal utility); tap water");
        expect(await page.locator("ul.words li .word-meaning").first().getAttribute("lang")).toBe("en");
        await shoot(page, "desktop-words-meaning-en");
      } else {
        expect(first).toBe("水道 수도 (수돗)");
        expect(await page.locator(".word-meaning").count()).toBe(0);
      }
      expectClean(watch);
      await context.close();
    }
  });
});
