/**
 * Class quizzes on the page (issue #49, point 4), in a real browser against a real server: the
 * teacher makes one from the quiz settings with the key (kept in the tab, never in a URL), gives the
 * link, and watches the results fill in, the most-missed questions first; students open the link,
 * give a name, answer (choices or typed, by keyboard, through an input method), submit and see their
 * own result. Refusals each get their message: a bad key, the key's limit, another key's results, an
 * unknown or closed class quiz, a name taken, the teacher's quota used up (the answers stay in the
 * form and go once the quota is back). Korean and English, phone and desktop, axe.
 */
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, type Served, axe, expectClean, openPage, serve, shoot, useSession } from "./browser.ts";

const session = useSession();
/** The teacher view's polling interval (web/src/views/classTeacher.ts `POLL_MS`). */
const POLL_MS = 4000;

/** A key from `POST /subscribe` of the served app, as a teacher gets one. */
async function subscribe(served: Served, name = "Teacher"): Promise<string> {
  const response = await fetch(`${served.url}/quiz/v1/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, email: `${name.toLowerCase()}@example.com` }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { api_key: string }).api_key;
}

/** The right answers of a class quiz (the choice's key, or the standard typed answer), read with its teacher's key as the test's oracle. */
async function rightAnswers(served: Served, key: string, code: string): Promise<string[]> {
  const response = await fetch(`${served.url}/quiz/v1/classes/${code}/results`, { headers: { "X-API-Key": key } });
  const body = (await response.json()) as { settings: { answer_format: string }; questions: { answer: string }[] };
  return body.questions.map((q) => (body.settings.answer_format === "typed" ? q.answer : (q.answer.split(" ")[0] ?? "")));
}

/** A class quiz made through the API (what the teacher view does, for the tests of the student's side). */
async function makeClass(served: Served, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${served.url}/quiz/v1/classes`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": key },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { class: { code: string } }).class.code;
}

/** Another choice than `right` (of four). */
function wrongOf(right: string): string {
  return right === "1" ? "2" : "1";
}

/** Chooses `key` of question `i` (from 0) on the student's form. */
async function choose(page: Page, i: number, key: string): Promise<void> {
  await page
    .locator("fieldset.class-question")
    .nth(i)
    .getByRole("radio")
    .nth(Number(key) - 1)
    .check();
}

/** Counts the page's reads of results. */
function resultReads(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on("request", (request) => {
    if (request.url().endsWith("/results")) seen.count++;
  });
  return seen;
}

/** Tells the page it is hidden or shown again, as a browser does when its tab is left or come back to. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

/** The text of each row of a table, cell by cell. */
async function rows(page: Page, table: string): Promise<string[][]> {
  return page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
}

describe("the page: a class quiz from the teacher's settings to the students' results", () => {
  it("makes one with the key, gives the link, and shows each student's result and the class's most-missed questions as they come in", async () => {
    const base = session.served.url;
    const key = await subscribe(session.served);
    const teacher = await openPage(session.browser, base, DESKTOP, "en-US");
    const reads = resultReads(teacher.page);
    // The page's timers are the test's: each turn of the results' polling is run on purpose.
    await teacher.page.clock.install();
    await teacher.page.goto(`${base}/#/quiz?type=hanja_to_reading&count=3`);
    await teacher.page.getByRole("button", { name: "Class quiz with results" }).click();
    await teacher.page.getByRole("heading", { level: 1, name: "Class quiz with results" }).waitFor();
    expect(teacher.page.url()).toBe(`${base}/#/class?type=hanja_to_reading&choices=4&count=3`);
    // No key yet: its field, which checks the key's shape.
    const keyBox = teacher.page.getByLabel("API key", { exact: true });
    await keyBox.fill("hj_short");
    await teacher.page.getByRole("button", { name: "Use this key" }).click();
    expect(await teacher.page.locator("#class-key-error").textContent()).toBe("A key looks like hj_ followed by 32 letters and digits.");
    expect(await keyBox.getAttribute("aria-invalid")).toBe("true");
    await keyBox.fill(key);
    await teacher.page.getByRole("button", { name: "Use this key" }).click();
    // The settings as the quiz view had them, and the class's own.
    await teacher.page.getByRole("button", { name: "Make the class quiz" }).waitFor();
    expect(await teacher.page.locator("dl.facts dd").allTextContents()).toEqual([
      "Character → reading",
      "3",
      "Choosing (4)",
      "Normal",
      "Education hanja (1,800)",
    ]);
    // The key lives in this tab's storage only.
    expect(await teacher.page.evaluate(() => [sessionStorage.getItem("hanja-page-key"), localStorage.getItem("hanja-page-key")])).toEqual([key, null]);
    await teacher.page.getByText("No class quiz yet.").waitFor();
    expect(await axe(teacher.page)).toEqual([]);
    // By keyboard: Tab to the title, through the class's fields, Enter makes it.
    const active = () => teacher.page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name);
    for (let i = 0; i < 30 && (await active()) !== "title"; i++) await teacher.page.keyboard.press("Tab");
    await teacher.page.keyboard.type("3-1 reading");
    for (const [name, value] of [
      ["open_hours", "2"],
      ["students_max", "30"],
    ]) {
      await teacher.page.keyboard.press("Tab");
      expect(await active()).toBe(name);
      await teacher.page.keyboard.press("Control+A");
      await teacher.page.keyboard.type(value ?? "");
    }
    const made = teacher.page.waitForResponse((r) => r.url().endsWith("/quiz/v1/classes") && r.request().method() === "POST");
    await teacher.page.keyboard.press("Enter");
    expect((await made).status()).toBe(201);
    expect((await made).request().postDataJSON()).toEqual({
      type: "hanja_to_reading",
      count: 3,
      choices: 4,
      lang: "en",
      title: "3-1 reading",
      open_hours: 2,
      students_max: 30,
    });
    expect((await made).request().headers()["x-api-key"]).toBe(key);
    const code = ((await (await made).json()) as { class: { code: string } }).class.code;
    await teacher.page.getByText("0 of 30 students have submitted.", { exact: false }).waitFor();
    expect(teacher.page.url()).toBe(`${base}/#/class?code=${code}`);
    expect(await teacher.page.getByRole("heading", { level: 1 }).textContent()).toBe("3-1 reading");
    const link = (await teacher.page.locator(".class-url").textContent()) ?? "";
    expect(link).toBe(`${base}/?class=${code}`);
    // Focus is on the title; the next Tab reaches the link's copy button.
    expect(await teacher.page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await teacher.page.keyboard.press("Tab");
    expect(await teacher.page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Copy: the students' link");
    // Before any submission the questions are in order, none answered.
    expect((await rows(teacher.page, "table[aria-labelledby=class-missed]")).map((row) => [row[0], row[3]])).toEqual([
      ["1", "—"],
      ["2", "—"],
      ["3", "—"],
    ]);
    await shoot(teacher.page, "desktop-class-teacher-made-en");
    expect(await axe(teacher.page)).toEqual([]);
    const rights = await rightAnswers(session.served, key, code);

    // A student on a phone, in Korean: the title, a name, three questions; one left blank first.
    const mina = await openPage(session.browser, base, PHONE, "ko-KR");
    const opened = mina.page.waitForResponse((r) => r.url().endsWith(`/quiz/v1/classes/${code}`));
    await mina.page.goto(link);
    const shown = (await (await opened).json()) as { class: { questions: { choices: { key: string; text: string }[] }[] } };
    await mina.page.getByRole("heading", { level: 1, name: "3-1 reading" }).waitFor();
    expect(await mina.page.locator("fieldset.class-question").count()).toBe(3);
    expect(await mina.page.locator("fieldset.class-question legend").first().textContent()).toBe("1번. Choose the reading of this character.");
    await mina.page.getByRole("textbox", { name: "이름" }).fill("김민준");
    await choose(mina.page, 0, rights[0] ?? "");
    await choose(mina.page, 1, wrongOf(rights[1] ?? ""));
    let submissions = 0;
    mina.page.on("request", (r) => void (r.url().endsWith("/submissions") && submissions++));
    await mina.page.getByRole("button", { name: "답 제출" }).click();
    expect(await mina.page.getByRole("alert").textContent()).toBe("3번 문제에 아직 답이 없습니다. 그대로 내려면 한 번 더 제출을 누르세요.");
    expect(submissions).toBe(0);
    await choose(mina.page, 2, rights[2] ?? "");
    // Answered now: the notice goes.
    expect(await mina.page.getByRole("alert").count()).toBe(0);
    await shoot(mina.page, "phone-class-student-form-ko");
    expect(await axe(mina.page)).toEqual([]);
    const sent = mina.page.waitForResponse((r) => r.url().endsWith("/submissions"));
    await mina.page.getByRole("button", { name: "답 제출" }).click();
    expect((await sent).status()).toBe(201);
    expect((await sent).request().postDataJSON()).toEqual({ name: "김민준", answers: [rights[0], wrongOf(rights[1] ?? ""), rights[2]] });
    await mina.page.getByRole("heading", { level: 2, name: "내 결과: 3문제 중 2문제 정답" }).waitFor();
    expect(await mina.page.evaluate(() => document.activeElement?.tagName)).toBe("H2");
    const marks = await mina.page.locator(".class-result > li").evaluateAll((lis) => lis.map((li) => li.className));
    expect(marks).toEqual(["is-right", "is-wrong", "is-right"]);
    // The wrong one with the text of the choice given and of the right one.
    const choiceText = (key: string) => shown.class.questions[1]?.choices.find((choice) => choice.key === key)?.text;
    const missed = mina.page.locator(".class-result > li").nth(1);
    expect(await missed.locator(".was-wrong").textContent()).toBe(choiceText(wrongOf(rights[1] ?? "")));
    expect(await missed.locator(".was-right").textContent()).toBe(choiceText(rights[1] ?? ""));
    await shoot(mina.page, "phone-class-student-result-ko");
    expect(await axe(mina.page)).toEqual([]);
    // The result stays in the tab: switching the language shows it again, in English.
    await mina.page.getByRole("combobox", { name: "언어" }).selectOption("en");
    await mina.page.getByRole("heading", { level: 2, name: "Your result: 2 of 3 right" }).waitFor();
    await shoot(mina.page, "phone-class-student-result-en");
    // On a shared device the next student starts on an empty form, and a reload no longer shows her result.
    await mina.page.getByRole("button", { name: "Another student on this device" }).click();
    expect(await mina.page.getByRole("textbox", { name: "Your name" }).inputValue()).toBe("");
    expect(await mina.page.evaluate(() => document.activeElement?.id)).toBe("class-name");
    expect(await mina.page.locator("input[type=radio]:checked").count()).toBe(0);
    await mina.page.reload();
    await mina.page.getByRole("button", { name: "Submit my answers" }).waitFor();
    expectClean(mina.watch);
    await mina.context.close();

    // The teacher's next turn of polling shows her, and the question the class missed first.
    await teacher.page.clock.runFor(POLL_MS);
    await teacher.page.getByText("1 of 30 students have submitted.", { exact: false }).waitFor();
    expect((await rows(teacher.page, "table[aria-labelledby=class-missed]"))[0]?.slice(0, 1)).toEqual(["2"]);

    // A second student at a desk, in English, by keyboard alone: Enter goes on from the name to each question.
    const ben = await openPage(session.browser, base, DESKTOP, "en-US");
    await ben.page.goto(link);
    await ben.page.getByRole("heading", { level: 1, name: "3-1 reading" }).waitFor();
    for (let i = 0; i < 20 && (await ben.page.evaluate(() => document.activeElement?.id)) !== "class-name"; i++) await ben.page.keyboard.press("Tab");
    await ben.page.keyboard.type("Ben");
    const picks = [wrongOf(rights[0] ?? ""), wrongOf(rights[1] ?? ""), rights[2] ?? ""];
    for (const [i, pick] of picks.entries()) {
      await ben.page.keyboard.press("Enter");
      expect(await ben.page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(`answer-${i + 1}`);
      // A radio group: Space checks the first, an arrow key moves to and checks the next.
      if (pick === "1") await ben.page.keyboard.press("Space");
      else for (let n = 1; n < Number(pick); n++) await ben.page.keyboard.press("ArrowDown");
    }
    await ben.page.keyboard.press("Enter");
    expect(await ben.page.evaluate(() => document.activeElement?.textContent)).toBe("Submit my answers");
    await ben.page.keyboard.press("Enter");
    await ben.page.getByRole("heading", { level: 2, name: "Your result: 1 of 3 right" }).waitFor();
    await shoot(ben.page, "desktop-class-student-result-en");
    expect(await axe(ben.page)).toEqual([]);
    expectClean(ben.watch);
    await ben.context.close();

    await teacher.page.clock.runFor(POLL_MS);
    await teacher.page.getByText("2 of 30 students have submitted.", { exact: false }).waitFor();
    // Most missed first: question 2 (nobody), 1 (one of two), then 3 (both).
    expect((await rows(teacher.page, "table[aria-labelledby=class-missed]")).map((row) => [row[0], row[3]])).toEqual([
      ["2", "0% (0/2)"],
      ["1", "50% (1/2)"],
      ["3", "100% (2/2)"],
    ]);
    expect((await rows(teacher.page, "table[aria-labelledby=class-students]")).map((row) => [row[0], row[1], row[3]])).toEqual([
      ["김민준", "2 / 3", "2"],
      ["Ben", "1 / 3", "1, 2"],
    ]);
    await shoot(teacher.page, "desktop-class-teacher-results-en");
    expect(await axe(teacher.page)).toEqual([]);
    // Hidden, the page reads nothing; shown again, it reads at once.
    const before = reads.count;
    await setHidden(teacher.page, true);
    await teacher.page.clock.runFor(POLL_MS * 3);
    expect(reads.count).toBe(before);
    const again = teacher.page.waitForRequest((r) => r.url().endsWith("/results"));
    await setHidden(teacher.page, false);
    await again;
    expect(reads.count).toBe(before + 1);
    // Leaving the view stops it too.
    await teacher.page.goto(`${base}/#/quiz`);
    await teacher.page.getByRole("heading", { level: 1, name: "Quiz" }).waitFor();
    const left = reads.count;
    await teacher.page.clock.runFor(POLL_MS * 3);
    expect(reads.count).toBe(left);
    // The key never went into a URL.
    expect(teacher.watch.requests.filter((url) => url.includes(key))).toEqual([]);
    expectClean(teacher.watch);
    await teacher.context.close();

    // The same results for a teacher on a phone, in Korean (the key entered again: a new browser), then the list.
    const phone = await openPage(session.browser, base, PHONE, "ko-KR");
    await phone.page.goto(`${base}/#/class?code=${code}`);
    await phone.page.getByLabel("API 키", { exact: true }).fill(key);
    await phone.page.getByRole("button", { name: "이 키 사용" }).click();
    await phone.page.getByText("학생 30명 중 2명이 제출했습니다.", { exact: false }).waitFor();
    // The quota line is the key's, not the demo's it showed before the key was entered.
    await phone.page.getByText("키 (무료): 오늘 100회 중 97회 남음").waitFor();
    expect(await phone.page.locator("table[aria-labelledby=class-missed] th").allTextContents()).toEqual(["번호", "문제", "정답", "맞힘"]);
    await shoot(phone.page, "phone-class-teacher-results-ko");
    expect(await axe(phone.page)).toEqual([]);
    await phone.page.setViewportSize(DESKTOP);
    await shoot(phone.page, "desktop-class-teacher-results-ko");
    await phone.page.setViewportSize(PHONE);
    await phone.page.getByRole("combobox", { name: "언어" }).selectOption("en");
    await phone.page.getByText("2 of 30 students have submitted.", { exact: false }).waitFor();
    await shoot(phone.page, "phone-class-teacher-results-en");
    await phone.page.getByRole("link", { name: "All your class quizzes" }).click();
    await phone.page.getByRole("link", { name: "3-1 reading" }).waitFor();
    expect(await phone.page.locator(".class-quizzes li .hint").textContent()).toMatch(/^2 of 30 students · until /);
    await shoot(phone.page, "phone-class-teacher-list-en");
    expect(await axe(phone.page)).toEqual([]);
    expectClean(phone.watch);
    await phone.context.close();
  });

  it("takes a typed class quiz by keyboard: Enter that ends a Hangul syllable goes nowhere, the next goes on, Submit sends once (Korean, phone)", async () => {
    const base = session.served.url;
    const key = await subscribe(session.served, "Typist");
    const code = await makeClass(session.served, key, { type: "hanja_to_reading", answer_format: "typed", count: 2, title: "읽기 쪽지 시험" });
    const rights = await rightAnswers(session.served, key, code);
    const { page, context, watch } = await openPage(session.browser, base, PHONE, "ko-KR");
    const cdp = await context.newCDPSession(page);
    let submissions = 0;
    page.on("request", (r) => void (r.url().endsWith("/submissions") && submissions++));
    await page.goto(`${base}/?class=${code}`);
    await page.getByRole("heading", { level: 1, name: "읽기 쪽지 시험" }).waitFor();
    expect(await page.locator("fieldset.class-question legend").first().textContent()).toBe("1번. 다음 한자의 음(독음)을 입력하세요.");
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name || document.activeElement?.tagName);
    for (let i = 0; i < 20 && (await focused()) !== "name"; i++) await page.keyboard.press("Tab");
    // The name through the input method: the Enter that ends its last syllable stays in the field.
    await page.keyboard.insertText("이서");
    await compose(cdp, "연");
    await page.keyboard.press("Enter");
    await commit(cdp, "연");
    expect(await focused()).toBe("name");
    await page.keyboard.press("Enter");
    expect(await focused()).toBe("answer-1");
    expect(await page.getByRole("textbox", { name: "답" }).first().getAttribute("autocomplete")).toBe("off");
    await page.keyboard.insertText(rights[0] ?? "");
    await page.keyboard.press("Enter");
    expect(await focused()).toBe("answer-2");
    await page.keyboard.insertText("아무");
    await compose(cdp, "말");
    await page.keyboard.press("Enter");
    await commit(cdp, "말");
    expect(await focused()).toBe("answer-2");
    await page.waitForTimeout(100);
    expect(submissions).toBe(0);
    await shoot(page, "phone-class-student-typed-ko");
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press("Enter");
    expect(await focused()).toBe("BUTTON");
    const sent = page.waitForResponse((r) => r.url().endsWith("/submissions"));
    await page.keyboard.press("Enter");
    expect((await sent).request().postDataJSON()).toEqual({ name: "이서연", answers: [rights[0], "아무말"] });
    await page.getByRole("heading", { level: 2, name: "내 결과: 2문제 중 1문제 정답" }).waitFor();
    expect(await page.locator(".class-result > li").nth(1).textContent()).toContain(`입력한 답: 아무말정답: ${rights[1]}`);
    expect(submissions).toBe(1);
    await shoot(page, "phone-class-student-typed-result-ko");
    expect(await axe(page)).toEqual([]);
    expectClean(watch);
    await context.close();
  });
});

describe("the page: class quizzes refused, each with its reason", () => {
  it("explains a bad key, the key's limit, another key's results, an unknown or closed code, a name taken, a repeat, and the teacher's quota used up", async () => {
    let clock = Date.now();
    const served = await serve({ now: () => new Date(clock), classQuizzesPerKey: 1 });
    const base = served.url;
    try {
      const key = await subscribe(served);
      const other = await subscribe(served, "Other");
      const code = await makeClass(served, key, { count: 2, open_hours: 48, title: "Limits" });
      const rights = await rightAnswers(served, key, code);

      // The teacher: the key's limit of class quizzes, then another key's results, then a key the service does not know.
      const teacher = await openPage(session.browser, base, DESKTOP, "en-US");
      await teacher.page.goto(`${base}/#/class?count=2`);
      await teacher.page.getByLabel("API key", { exact: true }).fill(key);
      await teacher.page.getByRole("button", { name: "Use this key" }).click();
      await teacher.page.getByRole("link", { name: "Limits" }).waitFor();
      await teacher.page.getByRole("button", { name: "Make the class quiz" }).click();
      await teacher.page.getByText("This key keeps as many class quizzes as it may.", { exact: false }).waitFor();
      await shoot(teacher.page, "desktop-class-teacher-limit-en");
      await teacher.page.evaluate((other) => sessionStorage.setItem("hanja-page-key", other), other);
      await teacher.page.goto(`${base}/#/class?code=${code}`);
      await teacher.page.reload();
      await teacher.page.getByText("This class quiz was made with another API key: only that key reads its results.").waitFor();
      await teacher.page.evaluate(() => sessionStorage.setItem("hanja-page-key", `hj_${"0".repeat(32)}`));
      await teacher.page.goto(`${base}/#/class`);
      await teacher.page.reload();
      await teacher.page.getByText("The API key was not accepted.", { exact: false }).waitFor();
      expect(await axe(teacher.page)).toEqual([]);
      await teacher.page.getByRole("button", { name: "Use another key" }).click();
      await teacher.page.getByRole("button", { name: "Use this key" }).waitFor();
      expect(await teacher.page.evaluate(() => sessionStorage.getItem("hanja-page-key"))).toBeNull();
      expectClean(teacher.watch, [429, 403, 401]);
      await teacher.context.close();

      // Students: an unknown code and a malformed one.
      const lost = await openPage(session.browser, base, PHONE, "ko-KR");
      for (const wrong of [`cq_${"A".repeat(22)}`, "nope"]) {
        await lost.page.goto(`${base}/?class=${wrong}`);
        await lost.page.getByText("이 링크의 반 퀴즈가 없습니다. 선생님께 링크를 확인하세요.").waitFor();
      }
      await shoot(lost.page, "phone-class-student-unknown-ko");
      expect(await axe(lost.page)).toEqual([]);
      expectClean(lost.watch, [404, 400]);
      await lost.context.close();

      // The first submission under a name stands: another student's same name (case and spacing aside) with other answers is refused, the same answers are that first result.
      const first = await openPage(session.browser, base, DESKTOP, "en-US");
      await first.page.goto(`${base}/?class=${code}`);
      await first.page.getByRole("textbox", { name: "Your name" }).fill("Mina Kim");
      await choose(first.page, 0, rights[0] ?? "");
      await choose(first.page, 1, rights[1] ?? "");
      await first.page.getByRole("button", { name: "Submit my answers" }).click();
      await first.page.getByRole("heading", { level: 2, name: "Your result: 2 of 2 right" }).waitFor();
      await first.context.close();
      const second = await openPage(session.browser, base, DESKTOP, "en-US");
      await second.page.goto(`${base}/?class=${code}`);
      const name = second.page.getByRole("textbox", { name: "Your name" });
      await name.fill("mina  KIM");
      await choose(second.page, 0, wrongOf(rights[0] ?? ""));
      await choose(second.page, 1, rights[1] ?? "");
      await second.page.getByRole("button", { name: "Submit my answers" }).click();
      await second.page.locator("#class-name-error").getByText("Someone has already submitted under this name.", { exact: false }).waitFor();
      expect(await name.getAttribute("aria-invalid")).toBe("true");
      expect(await second.page.evaluate(() => document.activeElement?.id)).toBe("class-name");
      await shoot(second.page, "desktop-class-student-name-taken-en");
      expect(await axe(second.page)).toEqual([]);
      await choose(second.page, 0, rights[0] ?? "");
      await second.page.getByRole("button", { name: "Submit my answers" }).click();
      await second.page.getByText("You had already submitted these answers: this is the result of your first submission.").waitFor();
      expect(await second.page.getByRole("heading", { level: 2 }).textContent()).toBe("Your result: 2 of 2 right");
      expectClean(second.watch, [409]);
      await second.context.close();

      // The teacher's key has no calls left today: the answers stay in the form, and go once the quota is back.
      const me = (await (await fetch(`${base}/quiz/v1/me`, { headers: { "X-API-Key": key } })).json()) as { key: { remaining: number } };
      for (let i = 0; i < me.key.remaining; i++) {
        const spent = await fetch(`${base}/quiz/v1/quiz?count=1`, { headers: { "X-API-Key": key } });
        expect(spent.status).toBe(200);
        await spent.arrayBuffer();
      }
      const late = await openPage(session.browser, base, PHONE, "ko-KR");
      await late.page.goto(`${base}/?class=${code}`);
      await late.page.getByRole("textbox", { name: "이름" }).fill("준");
      await choose(late.page, 0, rights[0] ?? "");
      await choose(late.page, 1, wrongOf(rights[1] ?? ""));
      const refused = late.page.waitForResponse((r) => r.url().endsWith("/submissions"));
      await late.page.getByRole("button", { name: "답 제출" }).click();
      expect((await refused).status()).toBe(429);
      await late.page.getByText("지금은 반의 호출을 다 써서 답을 보내지 못했습니다. 답은 그대로 있으니 나중에 다시 제출하세요.", { exact: false }).waitFor();
      expect(await late.page.locator(".class-outcome").textContent()).toMatch(/부터 다시 보낼 수 있습니다\.$/);
      expect(await late.page.getByRole("textbox", { name: "이름" }).inputValue()).toBe("준");
      expect(await late.page.locator("input[type=radio]:checked").evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value))).toEqual([
        rights[0],
        wrongOf(rights[1] ?? ""),
      ]);
      await shoot(late.page, "phone-class-student-quota-ko");
      expect(await axe(late.page)).toEqual([]);
      clock += 24 * 3600 * 1000;
      await late.page.getByRole("button", { name: "답 제출" }).click();
      await late.page.getByRole("heading", { level: 2, name: "내 결과: 2문제 중 1문제 정답" }).waitFor();
      expectClean(late.watch, [429]);
      await late.context.close();

      // Past its hours the class quiz is closed.
      clock += 48 * 3600 * 1000;
      const closed = await openPage(session.browser, base, DESKTOP, "en-US");
      await closed.page.goto(`${base}/?class=${code}`);
      await closed.page.getByText("This class quiz is closed: it takes no more answers.").waitFor();
      await shoot(closed.page, "desktop-class-student-closed-en");
      expectClean(closed.watch, [410]);
      await closed.context.close();
    } finally {
      await served.close();
    }
  });
});

/** Starts composing `text` in the focused field, as a Korean input method does. */
async function compose(cdp: CDPSession, text: string): Promise<void> {
  await cdp.send("Input.imeSetComposition", { text, selectionStart: text.length, selectionEnd: text.length });
}

/** Ends the composition, committing `text`. */
async function commit(cdp: CDPSession, text: string): Promise<void> {
  await cdp.send("Input.insertText", { text });
}
