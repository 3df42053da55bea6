/** The 214 Kangxi radicals (`#/radicals`), grouped by strokes, each a link to its characters. */
import { call } from "../api.ts";
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, requestPanel } from "../ui.ts";
import type { RadicalList } from "../../../runtime/format/records.ts";
import { type ViewContext, hashOf } from "./context.ts";

type Radical = RadicalList["data"][number];

/** The search's fragment for a radical's characters: the search form with `radical_number` filled in. */
export function radicalHash(radicalNumber: number): string {
  return hashOf("/hanja", { radical_number: radicalNumber });
}

/** `#/radicals`: every radical under its number of strokes, as a learner finds one in a paper dictionary. */
export async function radicalsView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  replace(main, h("h1", { tabindex: -1 }, t().radicalsTitle), loading());
  try {
    const answer = ok(await call<RadicalList | Problem>(`${ctx.bases.hanja}/radicals`));
    if (!ctx.current()) return;
    const groups = new Map<number | null, Radical[]>();
    for (const radical of answer.body.data) groups.set(radical.strokes, [...(groups.get(radical.strokes) ?? []), radical]);
    replace(
      main,
      h("h1", { tabindex: -1 }, t().radicalsTitle),
      h("p", {}, t().radicalsIntro(answer.body.total)),
      // Fewest strokes first, whatever the radical order (Unihan counts 瓦, 鬼 and a few others as written today).
      [...groups]
        .sort(([a], [b]) => (a ?? Number.MAX_SAFE_INTEGER) - (b ?? Number.MAX_SAFE_INTEGER))
        .map(([strokes, radicals]) =>
          h(
            "section",
            { class: "radical-group" },
            h("h2", {}, strokes === null ? "—" : t().strokeCount(strokes)),
            h(
              "ul",
              { class: "radicals" },
              radicals.map((r) => h("li", {}, radicalLink(r))),
            ),
          ),
        ),
      requestPanel(answer.request),
    );
  } catch (error) {
    if (ctx.current())
      replace(
        main,
        h("h1", { tabindex: -1 }, t().radicalsTitle),
        errorBox(error, () => void radicalsView(main, ctx)),
      );
  }
}

function radicalLink(r: Radical): HTMLElement {
  return h(
    "a",
    { href: radicalHash(r.radical_number), "aria-label": t().radicalName(r.radical, r.radical_number, r.character_count) },
    // The visible text ("水 85") begins the accessible name, so speech input finds the link by what it shows.
    h("span", { class: "radical-glyph", lang: "ko" }, r.radical),
    " ",
    h("small", {}, String(r.radical_number)),
  );
}
