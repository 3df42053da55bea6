/** A character's words (`#/words?char=水`) and word search (`#/words?q=역사`), on interface A (no quota spent). */
import { call } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, searchForm } from "../ui.ts";
import type { WordItem } from "../../../runtime/format/records.ts";
import { type Page, resultsPage } from "./characters.ts";
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
    replace(results, ...resultsPage(answer, wordList, (n) => hashOf("/words", { ...query, page: n })));
  } catch (error) {
    if (ctx.current())
      replace(
        results,
        errorBox(error, () => void wordSearch(main, ctx)),
      );
  }
}
