/** A list of words, shared by a character's detail and the words view (a module of its own, so neither imports the other). */
import { h } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import type { WordItem } from "../../../runtime/format/records.ts";
import { hashOf } from "./context.ts";
import { listenButton } from "../speech.ts";

/**
 * Words with their readings (the standard first, others after it), the dictionary's note, a link to
 * the idiom written the same and, on the English page, the word's English meaning where the service gives one.
 */
export function wordList(words: readonly WordItem[]): HTMLElement {
  return h(
    "ul",
    { class: "words" },
    words.map((w) =>
      h(
        "li",
        { lang: "ko" },
        h("span", { class: "word-hanja" }, w.hanja),
        " ",
        h("span", { class: "word-reading" }, w.readings[0] ?? ""),
        w.readings[0] ? listenButton(w.readings[0]) : null,
        w.readings.length > 1 ? h("small", { class: "other-readings" }, ` (${w.readings.slice(1).join(", ")})`) : null,
        w.note ? h("small", { class: "note" }, ` · ${w.note}`) : null,
        w.idiom_idx ? [" · ", h("a", { href: hashOf(`/idiom/${encodeURIComponent(w.hanja)}`) }, t().idiom)] : null,
        w.meaning_en && lang() === "en" ? h("span", { class: "word-meaning", lang: "en" }, ` — ${w.meaning_en}`) : null,
      ),
    ),
  );
}
