/**
 * Sound (issue #50 point 4), in a real browser: where the browser has a Korean voice the page reads
 * a character's 훈음, a word's reading and the reader's Hangul aloud with it (speechSynthesis, the
 * text and the voice's `ko` lang); where it has none, no button is shown. Chromium here may have no
 * Korean voice of its own, so each case stubs `speechSynthesis.getVoices` (and records `speak`, with
 * a plain utterance) before the page loads.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, axe, expectClean, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

/** Gives the page these voices, and records what it asks to be said (text and lang) in `window.spoken`. */
async function stubVoices(page: Page, voices: { lang: string; name: string; default?: boolean }[]): Promise<void> {
  await page.addInitScript((list) => {
    const spoken: { text: string; lang: string; voice: string | undefined }[] = [];
    // A plain utterance: Chromium's refuses a voice that is not one of its own.
    Object.assign(window, {
      SpeechSynthesisUtterance: class {
        text: string;
        lang = "";
        voice: unknown = null;
        constructor(text: string) {
          this.text = text;
        }
      },
    });
    Object.assign(window, { spoken });
    const made = list.map((v) => ({ lang: v.lang, name: v.name, default: v.default ?? false, localService: true, voiceURI: v.name }));
    speechSynthesis.getVoices = () => made as unknown as SpeechSynthesisVoice[];
    speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
      spoken.push({ text: utterance.text, lang: utterance.lang, voice: utterance.voice?.name });
    };
    speechSynthesis.cancel = () => {};
  }, voices);
}

const spoken = (page: Page) => page.evaluate(() => (window as unknown as { spoken: { text: string; lang: string; voice: string }[] }).spoken);

describe("the page in Chromium: reading aloud", () => {
  it("with a Korean voice: the card says 물 수, a word its reading, the reader its Hangul, each in ko-KR with that voice", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
    await stubVoices(page, [
      { lang: "en-US", name: "English", default: true },
      { lang: "ko-KR", name: "Korean" },
    ]);
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
    const card = page.locator("article.char-card");
    await card.locator("h1 .big-glyph").getByText("水").waitFor();
    await card.getByRole("button", { name: "Listen: 물 수" }).click();
    expect(await spoken(page)).toEqual([{ text: "물 수", lang: "ko-KR", voice: "Korean" }]);
    // The first word of 水 and its reading.
    const first = page.locator("ul.words li").first();
    const reading = (await first.locator(".word-reading").textContent()) ?? "";
    expect(reading).toMatch(/^[가-힣]+$/);
    await first.getByRole("button", { name: `Listen: ${reading}` }).click();
    expect((await spoken(page))[1]).toEqual({ text: reading, lang: "ko-KR", voice: "Korean" });
    await shoot(page, "desktop-character-card-listen");
    expect(await axe(page)).toEqual([]);
    await page.goto(`${session.served.url}/#/read?text=${encodeURIComponent("大韓民國은 民主共和國이다")}`);
    await page.locator("p.reading-plain").waitFor();
    await page.getByRole("button", { name: "Listen: 대한민국은 민주공화국이다" }).click();
    expect((await spoken(page))[2]).toEqual({ text: "대한민국은 민주공화국이다", lang: "ko-KR", voice: "Korean" });
    expectClean(watch);
    await context.close();
  });

  it("in Korean, with voices listed only after the page starts (voiceschanged): the button appears then, labelled 듣기", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.addInitScript(() => {
      const spoken: { text: string; lang: string }[] = [];
      // A plain utterance: Chromium's refuses a voice that is not one of its own.
      Object.assign(window, {
        SpeechSynthesisUtterance: class {
          text: string;
          lang = "";
          voice: unknown = null;
          constructor(text: string) {
            this.text = text;
          }
        },
      });
      Object.assign(window, { spoken });
      let voices: SpeechSynthesisVoice[] = [];
      speechSynthesis.getVoices = () => voices;
      speechSynthesis.speak = (u: SpeechSynthesisUtterance) => void spoken.push({ text: u.text, lang: u.lang });
      speechSynthesis.cancel = () => {};
      Object.assign(window, {
        loadVoices: () => {
          voices = [{ lang: "ko_KR", name: "Yuna", default: false, localService: true, voiceURI: "Yuna" } as unknown as SpeechSynthesisVoice];
          speechSynthesis.dispatchEvent(new Event("voiceschanged"));
        },
      });
    });
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
    await page.locator("article.char-card h1 .big-glyph").getByText("水").waitFor();
    expect(await page.locator(".listen-button").count()).toBe(0);
    await page.evaluate(() => (window as unknown as { loadVoices: () => void }).loadVoices());
    await page.getByRole("button", { name: "듣기: 물 수" }).click();
    expect(await spoken(page)).toEqual([{ text: "물 수", lang: "ko_KR" }]);
    expectClean(watch);
    await context.close();
  });

  it("without a Korean voice (only others, or none): no button anywhere", async () => {
    for (const voices of [[{ lang: "en-US", name: "English", default: true }], []]) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP);
      await stubVoices(page, voices);
      await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("水")}`);
      await page.locator("article.char-card h1 .big-glyph").getByText("水").waitFor();
      await page.locator("ul.words li").first().waitFor();
      expect(await page.locator(".listen-button").count()).toBe(0);
      await page.goto(`${session.served.url}/#/read?text=${encodeURIComponent("大韓民國")}`);
      await page.locator("p.reading-plain").waitFor();
      expect(await page.locator(".listen-button").count()).toBe(0);
      expectClean(watch);
      await context.close();
    }
  });
});
