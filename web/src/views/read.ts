/** `#/read?text=…`: paste text mixing hanja and Hangul, see it with its reading as ruby; characters and idioms link to their views. */
import { call } from "../api.ts";
import { type Child, field, h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok, requestPanel } from "../ui.ts";
import { type ViewContext, hashOf } from "./context.ts";
import { listenButton } from "../speech.ts";
import type { ReadResult, ReadSegment } from "../../../runtime/format/records.ts";

/** The form, and the text read when the fragment holds one (sent as a POST body: texts may be long). */
export async function readView(main: HTMLElement, ctx: ViewContext): Promise<void> {
  const text = ctx.params.get("text") ?? "";
  const area = h("textarea", { name: "text", rows: 5, lang: "ko", maxlength: 20000 }, text);
  const results = h("section", { class: "results" });
  const onsubmit = (event: Event) => {
    event.preventDefault();
    ctx.go(hashOf("/read", { text: area.value }));
  };
  const form = h(
    "form",
    { class: "search", onsubmit },
    field(t().readQuery, area, t().readQueryHint),
    h("button", { type: "submit", class: "primary" }, t().readSubmit),
  );
  replace(main, h("h1", { tabindex: -1 }, t().navRead), form, results);
  if (!text) return;
  replace(results, loading());
  try {
    const answer = ok(await call<ReadResult | Problem>(`${ctx.bases.hanja}/read`, {}, { method: "POST", json: { text } }));
    if (!ctx.current()) return;
    replace(
      results,
      h("h2", { tabindex: -1, "data-focus": "" }, t().readResult),
      h("p", { class: "hint" }, t().readTap),
      h("p", { class: "reading", lang: "ko" }, rubyOf(answer.body)),
      h("h3", {}, t().readPlain),
      h("p", { class: "reading-plain", lang: "ko" }, answer.body.hangul),
      listenButton(answer.body.hangul),
      requestPanel(answer.request),
    );
  } catch (error) {
    if (ctx.current())
      replace(
        results,
        errorBox(error, () => void readView(main, ctx)),
      );
  }
}

/** The text with each piece in `<ruby>` (DOM nodes: nothing is parsed as HTML), linked where it has a view. */
function rubyOf(reading: ReadResult): Child[] {
  const out: Child[] = [];
  let last = 0;
  for (const segment of reading.segments) {
    out.push(reading.text.slice(last, segment.offset));
    out.push(piece(segment));
    last = segment.offset + segment.hanja.length;
  }
  out.push(reading.text.slice(last));
  return out;
}

function piece(segment: ReadSegment): Child {
  if (segment.source === "none") return segment.hanja;
  const ruby = h("ruby", {}, segment.hanja, h("rt", {}, segment.hangul));
  if (segment.idiom_idx !== undefined) return h("a", { href: hashOf(`/idiom/${encodeURIComponent(segment.hanja)}`) }, ruby);
  if (segment.href !== undefined) return h("a", { href: hashOf(`/hanja/${encodeURIComponent(segment.hanja)}`) }, ruby);
  return ruby;
}
