/**
 * The page's flows in a real browser (Debian's Chromium through playwright-core): what a learner,
 * a teacher and a developer do, with no console error and no request to another host.
 * Screenshots go to test-results/page/ (see docs/contributing.md).
 */
import { describe, expect, it } from "vitest";
import { expectClean, openPage, serve, shoot, useSession } from "./browser.ts";

const session = useSession();

describe("the page in Chromium: flows", () => {
  it("looks up 水, follows it to 背水之陣 and back, with the request shown for developers", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/`);
    await page.getByRole("searchbox", { name: "Reading, 훈음, English or code point" }).fill("water");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.url()).toContain("#/hanja?q=water");
    const result = page.getByRole("link", { name: /^水/ });
    await result.first().waitFor();
    // A result shows the character's 훈음 (the first three at most).
    expect(await result.first().locator(".readings").textContent()).toBe("물 수, 고를 수");
    await shoot(page, "desktop-search");
    await result.first().click();
    await page.getByRole("heading", { level: 1, name: /水/ }).waitFor();
    expect(page.url()).toContain(`#/hanja/${encodeURIComponent("水")}`);
    await page.getByText("water, liquid, lotion, juice").waitFor();
    // Every 훈음, in the dictionary's order, with the dictionary named.
    const facts = (await page.locator("dl.facts").textContent()) ?? "";
    expect(facts).toContain("훈음 (meaning and reading)물 수, 고를 수 (libhangul hanja dictionary");
    await shoot(page, "desktop-character");
    // Its first words, its core words first (水道, 水泳, 水準), and a link to all of them.
    expect(await page.locator("ul.words li").first().textContent()).toBe("水道 수도 (수돗)");
    await page.getByRole("link", { name: "All 2,899 words →" }).click();
    await expect.poll(() => page.url()).toContain(`#/words?char=${encodeURIComponent("水")}`);
    await page.getByRole("heading", { level: 2, name: "2,899 results" }).waitFor();
    expect(await page.locator("ul.words li").count()).toBe(30);
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: /水/ }).waitFor();
    // The developer's panel: the request as a URL and a curl command.
    await page.getByText("API request for developers").click();
    await expect.poll(() => page.locator("details.api code").first().textContent()).toBe(`${session.served.url}/hanja/v1/hanja/%E6%B0%B4`);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: session.served.url });
    await page.getByRole("button", { name: "Copy: curl" }).click();
    await page.getByRole("button", { name: "Copy: curl" }).getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`curl '${session.served.url}/hanja/v1/hanja/%E6%B0%B4'`);
    await page.getByRole("link", { name: /背水之陣/ }).click();
    await page.getByRole("heading", { level: 1, name: /背水之陣/ }).waitFor();
    // The meaning, and the word-for-word reading apart from it.
    await page.getByText("물러설 길을 끊고 목숨을 걸어 맞서는 태세", { exact: false }).waitFor();
    await expect.poll(() => page.locator("dl.facts").textContent()).toContain("Literally물을 등지고 친 진");
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
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    // A shared link to an idiom: its detail, with no Back (nothing of the page to go back to).
    await page.goto(`${session.served.url}/#/idiom/${encodeURIComponent("背水之陣")}`);
    await page.getByRole("heading", { level: 1, name: /背水之陣/ }).waitFor();
    await page.getByText("ㅂㅅㅈㅈ").waitFor();
    expect(await page.getByRole("button", { name: "← Back" }).count()).toBe(0);
    // The empty search offers examples to try.
    await page.goto(`${session.served.url}/`);
    await page.getByRole("link", { name: "U+6C34" }).click();
    await page.getByRole("link", { name: /^水/ }).waitFor();
    await page.goto(`${session.served.url}/#/idioms`);
    await page.getByRole("searchbox", { name: "Hanja, hangul, initial consonants or meaning" }).fill("ㅂㅅㅈㅈ");
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: /背水之陣/ }).waitFor();
    await page.goto(`${session.served.url}/#/hanja?q=%EC%88%98&strokes=4&education=1`);
    await page.getByRole("link", { name: /^水/ }).waitFor();
    expect(await page.getByRole("spinbutton", { name: "Strokes" }).inputValue()).toBe("4");
    expect(await page.getByRole("checkbox", { name: "Only education hanja" }).isChecked()).toBe(true);
    expect(await page.getByRole("link", { name: /^手/ }).count()).toBe(1);
    // A code point finds its character.
    await page.goto(`${session.served.url}/#/hanja?q=U%2B6C34`);
    await page.getByRole("heading", { name: "1 result" }).waitFor();
    // A 훈음 puts its character first; a result with more than three 훈음 shows three and an ellipsis.
    await page.goto(`${session.served.url}/#/hanja?q=${encodeURIComponent("배울 학")}`);
    await expect.poll(() => page.locator("a.card .glyph").first().textContent()).toBe("學");
    await page.goto(`${session.served.url}/#/hanja?q=${encodeURIComponent("樂")}`);
    // An education hanja's 대표훈음 comes first (樂 즐길 락), then the dictionary's order.
    await expect.poll(() => page.locator("a.card .readings").first().textContent()).toBe("즐길 락, 즐길 낙, 즐거울 락 …");
    // The card lists the representative reading first (北 북, then Unihan's 배) and sets the 대표훈음 in bold.
    await page.goto(`${session.served.url}/#/hanja/${encodeURIComponent("北")}`);
    await page.getByRole("heading", { level: 1, name: /北/ }).waitFor();
    await expect.poll(async () => (await page.locator("dl.facts").textContent()) ?? "").toContain("Readings북, 배");
    expect(await page.locator("dl.facts .hunum strong").textContent()).toBe("북녘 북");
    expectClean(watch);
    await context.close();
  });

  it("shows loading and error states: the service's message for a bad filter, and a retry when the service cannot be reached", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/#/hanja?q=water&strokes=99`);
    await page.getByRole("alert").getByText("strokes must be from 1 to 64; got 99").waitFor();
    // A call held, then failing at the network: "Loading…" first, then the message and a retry.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/hanja/v1/idioms?*", async (route) => {
      await held;
      await route.abort("connectionrefused");
    });
    await page.goto(`${session.served.url}/#/idioms?q=%EB%B0%B0%EC%88%98`);
    await page.locator("main").getByRole("status").getByText("Loading…").waitFor();
    release();
    await page.getByText("The service could not be reached. Check the connection and try again.").waitFor();
    await page.unroute("**/hanja/v1/idioms?*");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("link", { name: /背水之陣/ }).waitFor();
    expectClean(watch, [400, "net::ERR_CONNECTION_REFUSED"]);
    await context.close();
  });

  it("reads pasted hanja text as ruby, and a tapped character or idiom leads to its view", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/`);
    await page.getByRole("link", { name: "Read", exact: true }).click();
    await page.getByRole("textbox", { name: "Text with hanja" }).fill("六月에 背水之陣을 쳤다 的");
    await page.getByRole("button", { name: "Read" }).click();
    await page.getByRole("heading", { level: 2, name: "Read in Hangul" }).waitFor();
    await expect.poll(() => page.locator(".reading-plain").textContent()).toBe("유월에 배수지진을 쳤다 적");
    expect(await page.locator(".reading ruby").allTextContents()).toEqual(["六月유월", "背水之陣배수지진", "的적"]);
    await shoot(page, "desktop-read");
    await page.locator(".reading a", { hasText: "背水之陣" }).click();
    await page.getByRole("heading", { level: 1, name: /背水之陣/ }).waitFor();
    await page.goBack();
    await page.locator(".reading a", { hasText: "的" }).click();
    await page.getByRole("heading", { level: 1, name: /的/ }).waitFor();
    expectClean(watch);
    await context.close();
  });

  it("takes a five-question quiz drawn in one call: a right and a wrong answer, the answer idiom and a running score", async () => {
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/#/quiz`);
    await page.getByRole("combobox", { name: "Question type" }).selectOption("hangul_to_hanja");
    await page.getByRole("combobox", { name: "Choices per question" }).selectOption("3");
    await page.getByRole("spinbutton", { name: "Questions" }).fill("5");
    const drawn = page.waitForResponse((response) => response.url().includes("/quiz/v1/quiz"));
    await page.getByRole("button", { name: "Start quiz" }).click();
    const body = (await (await drawn).json()) as { quizzes: { answer: string; choices: { key: string; text: string }[]; answer_idiom: { hanja: string } }[] };
    expect(body.quizzes).toHaveLength(5);
    // The English page asks for the quiz in English (lang=en); the link to share stays language-free.
    expect((await drawn).url()).toMatch(/quiz\?type=hangul_to_hanja&choices=3&count=5&lang=en$/);
    await page.getByText("Choose the hanja spelling of this reading.").waitFor();
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
      const { page, context, watch } = await openPage(session.browser, exhausted.url);
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
    const { page, context, watch } = await openPage(session.browser, session.served.url);
    await page.goto(`${session.served.url}/#/key`);
    await page.getByRole("button", { name: "Apply" }).click();
    // The API requires a name and an e-mail; the phone is optional, as in the API.
    for (const name of ["Name", "E-mail"]) {
      const input = page.getByRole("textbox", { name, exact: true });
      expect(await input.getAttribute("aria-invalid"), name).toBe("true");
    }
    expect(await page.getByRole("textbox", { name: "Phone" }).getAttribute("aria-invalid")).toBeNull();
    await page.getByText("Please correct the marked fields.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Kim Minji");
    await page.getByRole("textbox", { name: "E-mail" }).fill("not-an-address");
    await page.getByRole("textbox", { name: "Phone" }).fill("010-1234-5678");
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
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: session.served.url });
    await page.getByRole("button", { name: "Copy: API key" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.getByText("9,900 KRW", { exact: true }).waitFor();
    await page.getByText("Name on the transfer", { exact: true }).waitFor();
    // BANK_ACCOUNT unset: said in the page's language, not the API's English placeholder.
    await page.getByText("The operator has not published the account yet: ask them for it.").waitFor();
    // The key is in use in this tab at once: the status says so and the quota is the key's.
    await page.getByText("A key is in use in this tab.").waitFor();
    await page.getByText("awaiting the deposit").waitFor();
    // The key view shows the key's own quota; the page's quota line is for the metered quiz only.
    await page.locator(".key-status dd", { hasText: "100 / 100" }).waitFor();
    expect(await page.locator(".quota").isVisible()).toBe(false);
    expect(await page.getByLabel("API key", { exact: true }).inputValue()).toBe(key);
    await shoot(page, "desktop-key-applied");
    // The curl shown carries placeholders, not what was typed.
    const curl = await page.locator(".outcome details.api code").nth(1).textContent();
    expect(curl).toContain(`'{"name":"<name>","email":"<email>","phone":"<phone>"}'`);
    expect(curl).not.toContain("minji");
    // The key is used for the tab: sent in X-API-Key, shown as a placeholder, never in a URL.
    await page.goto(`${session.served.url}/#/quiz`);
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
});
