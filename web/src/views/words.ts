/** A character's words (`#/words?char=水`) and word search (`#/words?q=역사`), on interface A (no quota spent). */
import { call } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, requestPanel, searchForm } from "../ui.ts";
import type { WordItem } from "../../../runtime/format/records.ts";
import { type Page, pager } from "./characters.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { wordList } from "./wordList.ts";

/** `#/words?char=水` or `#/words?q=…`: the form and a page of words. */
export async function wordSearch(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const char = ctx.params.get("char") ?? "";
  const text = ctx.params.get("q") ?? "";
  const q = h("input", { type: "search", name: "q", value: text, autocomplete: "off", lang: "ko" });
  const results = h("section", { class: "results" });
  const form = searchForm(() => ctx.go(hashOf("/words", { q: q.value.trim() })), field(t().wordQuery, q, t().wordQueryHint));
  replace(main, h("h1", { tabindex: -1 }, char ? t().wordsWith(char) : t().navWords), form, results);
  if (!char && !text) return;
  const query = char ? { char } : { q: text };
  replace(results, loading());
  try {
    const page = ctx.params.get("page") ?? undefined;
    const answer = ok(await call<Page<WordItem> | Problem>(`${ctx.bases.hanja}/words`, { ...query, page, per_page: 30 }));
    if (!ctx.current()) return;
    const body = answer.body;
    replace(
      results,
      h("h2", { tabindex: -1, "data-focus": "" }, t().results(body.total)),
      body.data.length === 0 ? h("p", {}, t().noResults) : wordList(body.data),
      pager(body.page, body.pages, (n) => hashOf("/words", { ...query, page: n })),
      requestPanel(answer.request),
    );
  } catch (error) {
    if (ctx.current())
      replace(
        results,
        errorBox(error, () => void wordSearch(main, ctx)),
      );
  }
}
