/** Idiom search (hanja, hangul, initial consonants, meaning) and an idiom's detail, all on interface A (no quota spent). */
import { call } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, requestPanel, searchForm } from "../ui.ts";
import { type IdiomItem, type Page, idiomList, resultsPage } from "./characters.ts";
import { type ViewContext, hashOf } from "./context.ts";

/** `#/idioms?q=…`: the form and its results. */
export async function idiomSearch(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const q = h("input", { type: "search", name: "q", value: ctx.params.get("q") ?? "", autocomplete: "off", lang: "ko" });
  const results = h("section", { class: "results" });
  const form = searchForm(() => ctx.go(hashOf("/idioms", { q: q.value.trim() })), field(t().idiomQuery, q, t().idiomQueryHint));
  replace(main, h("h1", { tabindex: -1 }, t().navIdioms), form, results);
  const text = ctx.params.get("q");
  if (!text) return;
  const page = ctx.params.get("page") ?? undefined;
  replace(results, loading());
  try {
    const answer = ok(await call<Page<IdiomItem> | Problem>(`${ctx.bases.hanja}/idioms`, { q: text, page, per_page: 20 }));
    if (!ctx.current()) return;
    replace(results, ...resultsPage(answer, idiomList, (n) => hashOf("/idioms", { q: text, page: n })));
  } catch (error) {
    if (ctx.current())
      replace(
        results,
        errorBox(error, () => void idiomSearch(main, ctx)),
      );
  }
}

/** `#/idiom/背水之陣`: the idiom found by its exact hanja, its characters linked to their details. */
export async function idiomDetail(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const back = ctx.canGoBack ? h("p", { class: "back" }, h("button", { type: "button", class: "link", onclick: () => history.back() }, `← ${t().back}`)) : null;
  replace(main, back, h("h1", { tabindex: -1, lang: "ko" }, ctx.arg), loading());
  try {
    const answer = ok(await call<Page<IdiomItem> | Problem>(`${ctx.bases.hanja}/idioms`, { q: ctx.arg, per_page: 50 }));
    if (!ctx.current()) return;
    const idiom = answer.body.data.find((i) => i.hanja === ctx.arg || i.hangul === ctx.arg);
    if (!idiom) {
      replace(main, back, h("h1", { tabindex: -1, lang: "ko" }, ctx.arg), h("p", { role: "alert" }, t().notFound), requestPanel(answer.request));
      return;
    }
    replace(
      main,
      back,
      h("h1", { tabindex: -1, class: "detail-title", lang: "ko" }, h("span", { class: "big-idiom" }, idiom.hanja), h("span", { class: "sub" }, idiom.hangul)),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, t().meaning),
        h("dd", { lang: "ko" }, idiom.meaning),
        ...(idiom.meaning_en ? [h("dt", {}, t().meaningEn), h("dd", { lang: "en" }, idiom.meaning_en)] : []),
        ...(idiom.literal ? [h("dt", {}, t().literal), h("dd", { lang: "ko" }, idiom.literal)] : []),
        h("dt", {}, t().initials),
        h("dd", { lang: "ko", class: "chosung" }, idiom.chosung),
      ),
      h("h2", {}, t().characters),
      h(
        "ul",
        { class: "chars" },
        [...idiom.hanja].map((c, i) =>
          h(
            "li",
            {},
            h(
              "a",
              { href: hashOf(`/hanja/${encodeURIComponent(c)}`), class: "char-link", lang: "ko" },
              h("span", { class: "glyph" }, c),
              h("span", { class: "sub" }, idiom.hangul[i] ?? ""),
            ),
          ),
        ),
      ),
      requestPanel(answer.request),
    );
  } catch (error) {
    if (ctx.current()) replace(main, back, h("h1", { tabindex: -1, lang: "ko" }, ctx.arg), errorBox(error));
  }
}
