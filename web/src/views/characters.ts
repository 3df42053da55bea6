/** Character search (reading, English, hangul gloss, code point; filters) and a character's detail with its idioms and first words. */
import { listenButton } from "../speech.ts";
import { strokesSection } from "./strokes.ts";
import { type Answer, call } from "../api.ts";
import { type Child, field, h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, requestPanel, searchForm } from "../ui.ts";
import { codePointOf, unifiedOf } from "../compat.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { radicalHash } from "./radicals.ts";
import { wordList } from "./wordList.ts";
import type { ListEnvelope } from "../../../runtime/format/recordSchemas.ts";
import type { HanjaDetail, HanjaRecord, IdiomItemA } from "../../../runtime/format/records.ts";

/** An idiom of interface A, as the service declares it (types only: nothing of the service is bundled). */
export type IdiomItem = IdiomItemA;

/** A page of a list, as the service declares it. */
export type Page<T> = ListEnvelope<T>;

const FILTERS = ["q", "strokes", "radical_number", "starter", "education", "school_level", "sort", "page"] as const;

/** The last search, for the detail's way back. */
let lastSearch = "#/";

/** `#/` and `#/hanja?q=…`: the search form and its results. */
export async function characterSearch(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const p = ctx.params;
  lastSearch = location.hash || "#/";
  const q = h("input", { type: "search", name: "q", value: p.get("q") ?? "", autocomplete: "off", lang: "ko" });
  const strokes = h("input", { type: "number", name: "strokes", min: 1, max: 64, inputmode: "numeric", value: p.get("strokes") ?? "" });
  const radical = h("input", { type: "number", name: "radical_number", min: 1, max: 214, inputmode: "numeric", value: p.get("radical_number") ?? "" });
  const starter = h("input", { type: "checkbox", name: "starter", checked: p.get("starter") === "1" });
  const education = h("input", { type: "checkbox", name: "education", checked: p.get("education") === "1" });
  const schoolLevel = h(
    "select",
    { name: "school_level" },
    ["", "middle", "high"].map((value) => h("option", { value, selected: (p.get("school_level") ?? "") === value }, t().schoolLevels[value] ?? value)),
  );
  // The list's `sort`: the search's own order (code point without a query), or 가나다 order of the reading, or strokes.
  const sort = h(
    "select",
    { name: "sort" },
    ["", "reading", "strokes"].map((value) => h("option", { value, selected: (p.get("sort") ?? "") === value }, t().sortOrders[value] ?? value)),
  );
  const results = h("section", { class: "results" });
  const form = searchForm(
    () =>
      ctx.go(
        hashOf("/hanja", {
          q: q.value.trim(),
          strokes: strokes.value,
          radical_number: radical.value,
          starter: starter.checked ? 1 : undefined,
          education: education.checked ? 1 : undefined,
          school_level: schoolLevel.value || undefined,
          sort: sort.value || undefined,
        }),
      ),
    field(t().charQuery, q, t().charQueryHint),
    h("div", { class: "filters" }, field(t().strokes, strokes), field(t().radical, radical), field(t().schoolLevel, schoolLevel), field(t().sortOrder, sort)),
    h("div", { class: "checks" }, checkbox(t().starterOnly, starter), checkbox(t().educationOnly, education)),
  );
  replace(main, h("h1", { tabindex: -1 }, t().navSearch), form, h("p", {}, h("a", { href: "#/radicals" }, `${t().browseRadicals} →`)), results);
  const query = Object.fromEntries(FILTERS.map((name) => [name, p.get(name) ?? undefined]));
  const searched = FILTERS.some((name) => name !== "page" && p.get(name));
  if (!searched) {
    const example = (q: string) => h("li", {}, h("a", { href: hashOf("/hanja", { q }), lang: "ko" }, q));
    replace(results, h("h2", {}, t().examples), h("ul", { class: "examples" }, ["水", "수", "물", "water", "U+6C34"].map(example)));
    return;
  }
  replace(results, loading());
  try {
    const answer = ok(await call<Page<HanjaRecord> | Problem>(`${ctx.bases.hanja}/hanja`, { ...query, per_page: 24 }));
    if (!ctx.current()) return;
    const cards = (data: HanjaRecord[]) =>
      h(
        "ul",
        { class: "cards" },
        data.map((c) => h("li", {}, characterCard(c))),
      );
    replace(results, ...resultsPage(answer, cards, (n) => hashOf("/hanja", { ...query, page: n })));
  } catch (error) {
    if (ctx.current())
      replace(
        results,
        errorBox(error, () => void characterSearch(main, ctx)),
      );
  }
}

function checkbox(label: string, input: HTMLInputElement): HTMLElement {
  return h("div", { class: "field check" }, h("label", {}, input, ` ${label}`));
}

/** How many 훈음 a result card shows: enough to tell 樂's senses apart, short enough for a phone. */
const CARD_HUNUM = 3;

/** Its readings, the representative one (`reading`) first: 北 `북, 배`. */
function readingsFirst(c: HanjaRecord): string {
  return [c.reading, ...c.readings.filter((r) => r !== c.reading)].join(", ");
}

/** A character's line of Korean: its first `count` 훈음 (`물 수, 고를 수`, an education hanja's 대표훈음 first), else the project's gloss, else its readings. */
function headline(c: HanjaRecord, count: number): string {
  if (c.hunum.length === 0) return c.meaning_ko ?? readingsFirst(c);
  const shown = c.hunum.slice(0, count).map(({ hun, eum }) => `${hun} ${eum}`);
  return c.hunum.length > count ? `${shown.join(", ")} …` : shown.join(", ");
}

function characterCard(c: HanjaRecord): HTMLElement {
  return h(
    "a",
    { href: hashOf(`/hanja/${encodeURIComponent(c.character)}`), class: "card" },
    h("span", { class: "glyph", lang: "ko" }, c.character),
    h(
      "span",
      { class: "card-text" },
      h("span", { class: "readings", lang: "ko" }, headline(c, CARD_HUNUM)),
      c.definition_en ? h("span", { class: "definition", lang: "en" }, c.definition_en) : null,
      compatNote(c.character),
    ),
  );
}

/**
 * "호환 한자 U+F914 — 같은 글자: 樂 U+6A02" for a compatibility ideograph, else nothing: two look-alike
 * results told apart. On the card the unified form is a link (a result is a link already, so not there).
 */
function compatNote(character: string, link = false): HTMLElement | null {
  const unified = unifiedOf(character);
  if (!unified) return null;
  const attributes = { lang: "ko", ...(link ? { href: hashOf(`/hanja/${encodeURIComponent(unified)}`) } : {}) };
  return h(
    "span",
    { class: "compat" },
    `${t().compatibility} ${codePointOf(character)} — ${t().sameAs} `,
    h(link ? "a" : "span", attributes, unified),
    ` ${codePointOf(unified)}`,
  );
}

/** Every 훈음 of a character (an education hanja's 대표훈음 first, in bold), with the dictionary named after them. */
function hunumList(c: HanjaRecord): HTMLElement {
  const [first, ...rest] = c.hunum;
  const representative = first?.representative ? h("strong", {}, `${first.hun} ${first.eum}`) : null;
  const others = (representative ? rest : c.hunum).map(({ hun, eum }) => `${hun} ${eum}`).join(", ");
  return h(
    "span",
    { class: "hunum" },
    h("span", { lang: "ko" }, representative, representative && others ? ", " : null, others),
    c.hunum_source ? h("small", { class: "source" }, ` (${c.hunum_source})`) : null,
  );
}

/**
 * A page of a search's results, as every search shows it: how many there are, the list (or that
 * there are none), the pager (`hashFor` makes a page's link) and the request that was made.
 */
export function resultsPage<T>(answer: Answer<Page<T>>, list: (data: T[]) => Child, hashFor: (page: number) => string): Child[] {
  const { data, total, page, pages } = answer.body;
  return [
    h("h2", { tabindex: -1, "data-focus": "" }, t().results(total)),
    data.length === 0 ? h("p", {}, t().noResults) : list(data),
    pager(page, pages, hashFor),
    requestPanel(answer.request),
  ];
}

/** Previous/next links and the page number; nothing for a single page. */
function pager(page: number, pages: number, hashFor: (page: number) => string): HTMLElement | null {
  if (pages <= 1) return null;
  return h(
    "nav",
    { class: "pager", "aria-label": t().pageOf(page, pages) },
    page > 1 ? h("a", { href: hashFor(page - 1), rel: "prev" }, `← ${t().previous}`) : null,
    h("span", {}, t().pageOf(Math.min(page, pages), pages)),
    page < pages ? h("a", { href: hashFor(page + 1), rel: "next" }, `${t().next} →`) : null,
  );
}

/** What the card reads aloud: the first 훈음 (`물 수`), else the reading. */
function spoken(c: HanjaRecord): string {
  const first = c.hunum[0];
  return first ? `${first.hun} ${first.eum}` : c.reading;
}

/** `#/hanja/水`: one character with its idioms. */
export async function characterDetail(main: HTMLElement, ctx: ViewContext): Promise<void> {
  replace(main, h("h1", { tabindex: -1 }, ctx.arg), loading());
  try {
    const answer = ok(await call<HanjaDetail | Problem>(`${ctx.bases.hanja}/hanja/${encodeURIComponent(ctx.arg)}`));
    if (!ctx.current()) return;
    const c = answer.body;
    const rows: [string, Child][] = [
      [t().readings, h("span", { lang: "ko" }, readingsFirst(c))],
      [t().hunum, c.hunum.length > 0 ? hunumList(c) : "—"],
      [t().gloss, c.meaning_ko ? h("span", { lang: "ko" }, c.meaning_ko) : "—"],
      [t().definition, c.definition_en ? h("span", { lang: "en" }, c.definition_en) : "—"],
      [t().codepoint, c.codepoint],
      [t().strokes, c.strokes],
      [t().radicalLabel, h("a", { href: radicalHash(c.radical_number), lang: "ko" }, `${c.radical} (${c.radical_number})`)],
      [t().variants, c.variants ? variantLinks(c.variants) : "—"],
      [t().education, c.education_hanja ? t().yes : t().no],
      [t().schoolLevel, c.school_level ? (t().schoolLevelOf[c.school_level] ?? c.school_level) : "—"],
      [t().nameHanja, c.name_hanja ? t().yes : t().no],
    ];
    const { idioms } = c;
    replace(
      main,
      h("p", { class: "back" }, h("a", { href: lastSearch }, `← ${t().backToSearch}`)),
      h(
        "article",
        { class: "char-card" },
        h(
          "h1",
          { tabindex: -1, class: "detail-title" },
          h("span", { class: "big-glyph", lang: "ko" }, c.character),
          h("span", { class: "sub", lang: "ko" }, headline(c, 1)),
        ),
        listenButton(spoken(c)),
        c.stroke_order ? strokesSection(c.character, ctx.bases.hanja) : null,
        compatNote(c.character, true),
        h(
          "dl",
          { class: "facts" },
          rows.map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
        ),
      ),
      h("h2", {}, t().idiomsWith(c.character)),
      idioms.length === 0 ? h("p", {}, t().noIdioms) : idiomList(idioms),
      h("h2", {}, t().wordsWith(c.character)),
      c.words.length === 0 ? h("p", {}, t().noWords) : wordList(c.words),
      c.word_count > c.words.length ? h("p", {}, h("a", { href: hashOf("/words", { char: c.character }) }, `${t().allWords(c.word_count)} →`)) : null,
      requestPanel(answer.request),
    );
  } catch (error) {
    if (ctx.current())
      replace(main, h("h1", { tabindex: -1 }, ctx.arg), h("p", { class: "back" }, h("a", { href: lastSearch }, `← ${t().backToSearch}`)), errorBox(error));
  }
}

function variantLinks(variants: string): Child[] {
  return [...variants].map((v, i) => [i > 0 ? " " : null, h("a", { href: hashOf(`/hanja/${encodeURIComponent(v)}`), lang: "ko" }, v)]);
}

/** A list of idioms, each a link to its detail. */
export function idiomList(idioms: readonly IdiomItem[]): HTMLElement {
  return h(
    "ul",
    { class: "idioms" },
    idioms.map((i) =>
      h(
        "li",
        {},
        h(
          "a",
          { href: hashOf(`/idiom/${encodeURIComponent(i.hanja)}`), lang: "ko" },
          h("span", { class: "idiom-hanja" }, i.hanja),
          " ",
          h("span", { class: "idiom-hangul" }, i.hangul),
        ),
        h("p", { class: "meaning", lang: "ko" }, i.meaning),
        // English readers also get the English meaning.
        lang() === "en" && i.meaning_en ? h("p", { class: "meaning-en", lang: "en" }, i.meaning_en) : null,
      ),
    ),
  );
}
