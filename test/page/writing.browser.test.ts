/**
 * The writing-practice sheet (쓰기 연습, issue #50 point 3) in a real browser: for a school level's
 * sheet, a quiz's characters and the review list, each character's block holds what the API says
 * (훈음, reading, as many stroke steps as `/strokes` has strokes), a row of ten boxes to trace and ten
 * empty ones; printed by Chromium to an A4 PDF, no block is split across pages. Where each block
 * lands is read from the PDF: a link at a block's first and last box becomes an annotation of the
 * page it is printed on (as worksheet.browser.test.ts does for questions).
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { HanjaDetail, HanjaRecord, HanjaStrokes } from "../../runtime/format/records.ts";
import { DESKTOP, PHONE, SCREENSHOTS, axe, expectClean, markedPages, openPage, shoot, useSession } from "./browser.ts";

const session = useSession();

async function api<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${session.served.url}/hanja/v1${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

/** What a block on the sheet shows. */
interface Block {
  character: string;
  model: string;
  hunum: string;
  reading: string;
  steps: number;
  note: string;
  traced: string[];
  empty: number;
}

const blocks = (page: Page): Promise<Block[]> =>
  page.locator(".write-block").evaluateAll((sections) =>
    sections.map((s) => ({
      character: s.getAttribute("data-character") ?? "",
      model: s.querySelector(".write-box.model")?.textContent ?? "",
      hunum: s.querySelector(".write-hunum")?.textContent ?? "",
      reading: s.querySelector(".write-reading")?.textContent ?? "",
      steps: s.querySelectorAll(".write-step").length,
      note: s.querySelector(".write-note")?.textContent ?? "",
      traced: [...s.querySelectorAll(".write-row.traced .write-box")].map((b) => b.textContent ?? ""),
      empty: [...s.querySelectorAll(".write-row.empty .write-box")].filter((b) => b.textContent === "").length,
    })),
  );

/** Each block as the API describes its character: 훈음 (first three), readings, stroke steps or the note of none. */
async function expectBlocksMatchApi(page: Page, characters: string[], notes: { notKorean: string; japanese: string; none: string }): Promise<void> {
  const shown = await blocks(page);
  expect(shown.map((b) => b.character)).toEqual(characters);
  expect((await page.locator(".writing-list").textContent())?.split(" ")).toEqual(characters);
  for (const block of shown) {
    const detail = (await api<HanjaDetail>(`/hanja/${encodeURIComponent(block.character)}`)).body;
    const strokes = await api<HanjaStrokes>(`/hanja/${encodeURIComponent(block.character)}/strokes`);
    const where = block.character;
    expect.soft(block.model, where).toBe(block.character);
    expect.soft(block.hunum, where).toBe(
      detail.hunum
        .slice(0, 3)
        .map(({ hun, eum }) => `${hun} ${eum}`)
        .join(", "),
    );
    expect.soft(block.reading, where).toBe([detail.reading, ...detail.readings.filter((r) => r !== detail.reading)].join(", "));
    expect.soft(block.steps, where).toBe(strokes.status === 200 ? strokes.body.strokes.length : 0);
    const form = strokes.status === 404 ? "none" : strokes.body.form;
    const note = form === "none" ? notes.none : form === "ko" ? "" : form === "zh" ? notes.notKorean : notes.japanese;
    expect.soft(block.note, where).toBe(note);
    expect.soft(block.traced, where).toEqual(Array(10).fill(block.character));
    expect.soft(block.empty, where).toBe(10);
  }
}

/** Each block's first and last page in the A4 PDF Chromium prints, the pages' sizes (points) and their count. */
async function printAndLocate(page: Page, path: string): Promise<{ pages: number; sizes: string[]; blocks: { first: number; last: number }[] }> {
  await page.evaluate(() => {
    const mark = (element: Element | null | undefined, href: string) => {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = ".";
      link.style.color = "transparent";
      link.style.position = "absolute";
      element?.append(link);
    };
    for (const [i, block] of document.querySelectorAll(".write-block").entries()) {
      mark(block.querySelector(".write-box.model"), `https://mark.invalid/b${i}/first`);
      mark(block.querySelector(".write-row.empty .write-box:last-child"), `https://mark.invalid/b${i}/last`);
    }
  });
  const { pages, sizes, onPage } = markedPages(await page.pdf({ format: "A4", path }));
  const count = await page.locator(".write-block").count();
  const at = (uri: string) => onPage.get(uri) ?? Number.NaN;
  return { pages, sizes, blocks: Array.from({ length: count }, (_, i) => ({ first: at(`b${i}/first`), last: at(`b${i}/last`) })) };
}

/** The PDF has A4 pages only, every block on one page in order, and no page after the last block's but the sources' line. */
async function expectPrinted(page: Page, name: string): Promise<string> {
  const printed = await printAndLocate(page, join(SCREENSHOTS, `${name}.pdf`));
  const where = JSON.stringify(printed);
  expect(printed.sizes, where).toEqual(Array(printed.pages).fill("A4"));
  for (const [i, { first, last }] of printed.blocks.entries()) {
    expect.soft(first, where).toBe(last);
    expect.soft(first, where).toBeGreaterThanOrEqual(printed.blocks[i - 1]?.last ?? 0);
  }
  const lastPage = printed.blocks.at(-1)?.last ?? Number.NaN;
  expect(printed.pages - 1 - lastPage, where).toBeLessThanOrEqual(1);
  const perPage = new Map<number, number>();
  for (const { first } of printed.blocks) perPage.set(first, (perPage.get(first) ?? 0) + 1);
  return `${name}: ${printed.blocks.length} characters on ${printed.pages} A4 pages [${[...perPage.values()].join(", ")}]`;
}

const KO = {
  notKorean: "중국 자형의 획순입니다(Make Me a Hanzi). 한국에서 가르치는 획순과 다를 수 있습니다.",
  japanese: "일본 자형의 획순입니다(KanjiVG, 획의 중심선). 한국에서 가르치는 자형·획순과 다를 수 있습니다.",
  none: "이 글자는 획순 자료가 없습니다. 큰 글자를 보고 따라 쓰세요.",
};
const EN = {
  notKorean: "This is the Chinese form's stroke order (Make Me a Hanzi): the order taught in Korea may differ.",
  japanese: "This is the Japanese form's stroke order (KanjiVG), drawn as centre lines: the form and order taught in Korea may differ.",
  none: "No stroke order for this character: write it after the model.",
};

describe("the page: the writing-practice sheet (쓰기 연습)", () => {
  it("a school level's sheet: the API's characters of that range, each with its strokes, 훈음, reading and rows; printed on A4 without a split block", async () => {
    const figures: string[] = [];
    for (const [viewport, locale, notes] of [
      [DESKTOP, "ko-KR", KO],
      [PHONE, "en-US", EN],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      const short = `${viewport === PHONE ? "phone" : "desktop"}-writing-high-${locale.slice(0, 2)}`;
      // The high-school characters 21–40 in 가나다 order of their reading, each drawn in its strokes' form or noted as without.
      await page.goto(`${session.served.url}/#/writing?set=high&sheet=2`);
      await page.locator(".writing-sheet").waitFor();
      const list = (await api<{ data: HanjaRecord[]; total: number }>("/hanja?school_level=high&sort=reading&per_page=20&page=2")).body;
      expect(list.total).toBe(900);
      await expectBlocksMatchApi(
        page,
        list.data.map((r) => r.character),
        notes,
      );
      expect(await page.locator(".writing-sheet h2").textContent()).toBe(
        locale === "ko-KR" ? "쓰기 연습: 고등학교용 한자 21~40번 (900자 중)" : "Writing practice: High-school hanja 21–40 of 900",
      );
      expect(await page.locator("select[name=sheet] option").count()).toBe(45);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      // The sheet's top as the screen shows it (the whole sheet is the PDF below); on a phone, below the settings.
      if (viewport === PHONE) await page.locator(".writing-sheet h2").evaluate((heading) => heading.scrollIntoView());
      await page.screenshot({ path: join(SCREENSHOTS, `${short}.png`) });
      expect(await axe(page)).toEqual([]);
      figures.push(await expectPrinted(page, short));
      await page.emulateMedia({ media: "print" });
      // Printed: the sheet alone, without the page's header, navigation, settings or buttons.
      for (const chrome of ["header.top", "nav.main-nav", "main > h1", ".writing-form", "main > .hint"])
        expect.soft(await page.locator(chrome).isVisible(), chrome).toBe(false);
      expect(await page.locator(".writing-sheet h2").isVisible()).toBe(true);
      await page.setViewportSize({ width: 794, height: 1123 });
      await page.screenshot({ path: join(SCREENSHOTS, `${short}-print.png`) });
      await page.emulateMedia({ media: "screen" });
      await page.setViewportSize(viewport);
      // Another size of sheet: the settings' count, from its first sheet.
      await page.locator("input[name=count]").fill("6");
      await page.locator("input[name=count]").press("Tab");
      await expect.poll(() => page.url()).toContain("#/writing?set=high&count=6");
      const first = (await api<{ data: HanjaRecord[] }>("/hanja?school_level=high&sort=reading&per_page=6")).body.data.map((r) => r.character);
      await expect.poll(async () => (await blocks(page)).map((b) => b.character)).toEqual(first);
      // A list's records do not say which characters have strokes: one without is asked and answered 404.
      expectClean(watch, [404]);
      await context.close();
    }
    console.log(figures.join("\n"));
  });

  it("a quiz's characters: the result's link makes the sheet of the characters the quiz asked (the API's answers)", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "ko-KR");
    await page.goto(`${session.served.url}/#/quiz?type=hunum_to_hanja&count=6&seed=50`);
    const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
    await page.locator(".quiz-form button[type=submit]").click();
    const quizzes = ((await (await drawn).json()) as { quizzes: { quiz_id: string; choices: { key: string }[] }[] }).quizzes;
    for (let i = 0; i < quizzes.length; i++) {
      await page.locator(".choice").first().click();
      await page.locator(".next").click();
    }
    await page.locator("h2.result").waitFor();
    // A class's seeded quiz comes without answers: the graded answers name the characters.
    const graded = await Promise.all(
      quizzes.map(async (quiz) => {
        const response = await fetch(`${session.served.url}/quiz/v1/grade`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ quiz_id: quiz.quiz_id, answer: "1" }),
        });
        return ((await response.json()) as { result: { answer_character: { character: string } } }).result.answer_character.character;
      }),
    );
    await page.getByRole("link", { name: "이 한자로 쓰기 연습" }).click();
    await page.locator(".writing-sheet").waitFor();
    expect(await page.locator("select[name=set]").inputValue()).toBe("quiz");
    await expectBlocksMatchApi(page, [...new Set(graded)], KO);
    console.log(await expectPrinted(page, "desktop-writing-quiz-ko"));
    expectClean(watch);
    await context.close();
  });

  it("a class quiz's characters: its results' link makes the sheet of the characters its questions ask", async () => {
    const subscribed = await fetch(`${session.served.url}/quiz/v1/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Teacher", email: "teacher@example.com" }),
    });
    const key = ((await subscribed.json()) as { api_key: string }).api_key;
    const made = await fetch(`${session.served.url}/quiz/v1/classes`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ type: "hanja_to_reading", count: 3, title: "Writing" }),
    });
    const code = ((await made.json()) as { class: { code: string } }).class.code;
    const results = await fetch(`${session.served.url}/quiz/v1/classes/${code}/results`, { headers: { "X-API-Key": key } });
    // hanja_to_reading: each question's prompt is its character.
    const characters = ((await results.json()) as { questions: { prompt: string }[] }).questions.map((q) => q.prompt);
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "en-US");
    await page.goto(`${session.served.url}/`);
    await page.evaluate((key) => sessionStorage.setItem("hanja-page-key", key), key);
    await page.goto(`${session.served.url}/#/class?code=${code}`);
    await page.getByRole("link", { name: "Writing practice of these characters" }).click();
    await page.locator(".writing-sheet").waitFor();
    expect(await page.locator("select[name=set]").inputValue()).toBe("class");
    await expectBlocksMatchApi(page, [...new Set(characters)], EN);
    expectClean(watch);
    await context.close();
  });

  it("the review list: its characters; an empty list says so", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, DESKTOP, "en-US");
    await page.goto(`${session.served.url}/#/writing?set=review`);
    const empty = page.locator(".writing-empty");
    await empty.waitFor();
    expect(await empty.getAttribute("role")).toBe("alert");
    expect(await empty.textContent()).toContain("Your review list is empty");
    expect(await page.locator(".write-block").count()).toBe(0);
    await shoot(page, "desktop-writing-review-empty-en");
    // Missed questions kept for review (hanja_to_reading: the prompt is the character).
    await page.goto(`${session.served.url}/#/quiz?type=hanja_to_reading&count=4`);
    await page.getByRole("checkbox", { name: /Keep the questions I miss/ }).check();
    const drawn = page.waitForResponse((r) => r.url().includes("/quiz/v1/quiz?"));
    await page.locator(".quiz-form button[type=submit]").click();
    const quizzes = ((await (await drawn).json()) as { quizzes: { prompt: string; answer: string; choices: { key: string }[] }[] }).quizzes;
    for (const [i, quiz] of quizzes.entries()) {
      // The first three missed, the last right.
      const pick = i < 3 ? (quiz.choices.find((c) => c.key !== quiz.answer)?.key ?? "") : quiz.answer;
      await page
        .locator(".choice")
        .nth(Number(pick) - 1)
        .click();
      await page.locator(".next").click();
    }
    await page.locator("h2.result").waitFor();
    await page.locator(".review").getByRole("link", { name: "Writing practice of these characters" }).click();
    await page.locator(".writing-sheet").waitFor();
    await expectBlocksMatchApi(
      page,
      quizzes.slice(0, 3).map((q) => q.prompt),
      EN,
    );
    expectClean(watch);
    await context.close();
  });

  it("a failed strokes request (404, network) still gives the sheet, each with a note; a character without strokes keeps its rows; a sheet past the last or a quiz without characters says so", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url, PHONE, "ko-KR");
    await page.route(`**/hanja/v1/hanja/${encodeURIComponent("水")}/strokes`, (route) =>
      route.fulfill({ status: 404, contentType: "application/problem+json", body: JSON.stringify({ status: 404, code: "not_found", title: "Not Found" }) }),
    );
    await page.route(`**/hanja/v1/hanja/${encodeURIComponent("火")}/strokes`, (route) => route.abort("failed"));
    await page.goto(`${session.served.url}/#/writing?set=quiz&chars=${encodeURIComponent("水火木卽値")}`);
    await page.locator(".writing-sheet").waitFor();
    const shown = await blocks(page);
    expect(shown.map((b) => [b.character, b.steps, b.note])).toEqual([
      ["水", 0, KO.none],
      ["火", 0, "획순을 불러오지 못했습니다. 쓰기 칸은 모두 있습니다."],
      ["木", 4, ""],
      ["卽", 0, KO.none],
      ["値", 10, KO.japanese],
    ]);
    // A Japanese form's steps are its centre lines, drawn as lines (it has no outlines).
    expect(await page.locator('.write-block[data-character="値"] .write-step g.lines').count()).toBe(10);
    expect(await page.locator('.write-block[data-character="木"] .write-step g.lines').count()).toBe(0);
    for (const block of shown) {
      expect(block.traced).toEqual(Array(10).fill(block.character));
      expect(block.empty).toBe(10);
    }
    expect(await page.locator(".write-hunum").allTextContents()).toEqual(["물 수, 고를 수", "불 화", "나무 목", "곧 즉", "값 치, 가치 있을 치, 만날 치"]);
    await page
      .locator(".write-block")
      .first()
      .evaluate((block) => block.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, "phone-writing-strokes-failed-ko.png") });
    // A sheet past a level's last says how many there are; a quiz link without characters says it has none.
    await page.goto(`${session.served.url}/#/writing?set=middle&sheet=46`);
    await expect.poll(() => page.locator(".writing-empty").textContent()).toBe("그런 장은 없습니다. 이 묶음은 45장입니다.");
    await page.goto(`${session.served.url}/#/writing?set=quiz&chars=abc`);
    await expect.poll(() => page.locator(".writing-empty").textContent()).toContain("이 퀴즈에는 쓸 한자가 없습니다.");
    expect(await page.locator(".write-block").count()).toBe(0);
    expectClean(watch, [404, "net::ERR_FAILED"]);
    await context.close();
  });

  it("the issue's screenshots, phone and desktop, Korean and English: the card's strokes, the school-level filters of the search and the quiz, the sheet on screen and printed", async () => {
    for (const [viewport, locale] of [
      [PHONE, "ko-KR"],
      [PHONE, "en-US"],
      [DESKTOP, "ko-KR"],
      [DESKTOP, "en-US"],
    ] as const) {
      const { page, context, watch } = await openPage(session.browser, session.served.url, viewport, locale);
      const ko = locale === "ko-KR";
      const name = (what: string) => join(SCREENSHOTS, `${viewport === PHONE ? "phone" : "desktop"}-${locale.slice(0, 2)}-${what}.png`);
      const fits = async (what: string) =>
        expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `${what} ${locale} ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      // The card with its strokes (木: a Korean form, four strokes).
      await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("木")}`);
      await page.getByRole("button", { name: ko ? "획순 보기" : "Show the stroke order" }).click();
      await page.locator("svg.stroke-drawing").waitFor();
      expect(await page.locator("svg.stroke-drawing path").count()).toBe(4);
      await page.locator(".strokes").evaluate((section) => section.scrollIntoView({ block: "center" }));
      await fits("card");
      await page.screenshot({ path: name("card-strokes") });
      // The search's school-level filter, chosen.
      await page.goto(`${session.served.url}/#/hanja?school_level=middle`);
      await page.locator("a.card").first().waitFor();
      expect(await page.locator("select[name=school_level]").inputValue()).toBe("middle");
      await fits("search");
      await page.screenshot({ path: name("search-school-level") });
      // The quiz settings' pool of characters, middle school chosen.
      await page.goto(`${session.served.url}/#/quiz?level=middle`);
      expect(await page.locator("select[name=level]").inputValue()).toBe("middle");
      await page.locator("select[name=level]").evaluate((select) => select.scrollIntoView({ block: "center" }));
      await fits("quiz");
      await page.screenshot({ path: name("quiz-school-level") });
      // The sheet: its settings and first characters, and (once a language) as printed.
      await page.goto(`${session.served.url}/#/writing?set=middle&count=8`);
      await page.locator(".write-block").first().waitFor();
      expect(await page.locator(".write-block").count()).toBe(8);
      await fits("sheet");
      // On a phone the settings fill the screen: the sheet's top below them.
      if (viewport === PHONE) await page.locator(".writing-sheet h2").evaluate((heading) => heading.scrollIntoView());
      await page.screenshot({ path: name("writing") });
      if (viewport === DESKTOP) {
        await page.emulateMedia({ media: "print" });
        await page.setViewportSize({ width: 794, height: 1123 });
        await page.screenshot({ path: join(SCREENSHOTS, `writing-print-${locale.slice(0, 2)}.png`) });
      }
      expectClean(watch);
      await context.close();
    }
  });
});
