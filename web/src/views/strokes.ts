/**
 * A character's strokes on its card: fetched on first use (the “show the stroke order” button), drawn
 * from `GET /hanja/{character}/strokes` as SVG, stroke by stroke: step back and forth, or replay them
 * in order. A form other than Korean says so beside the drawing. Outlines are filled; KanjiVG's
 * Japanese strokes, which have none, are drawn as lines of a set width along their medians.
 */
import { call } from "../api.ts";
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type Problem, errorBox, loading, ok } from "../ui.ts";
import type { HanjaStrokes } from "../../../runtime/format/records.ts";

const SVG = "http://www.w3.org/2000/svg";
/** The width of a stroke drawn from its centre line (1024-unit frame; about the filled strokes' width). */
const LINE_WIDTH = 56;
/** Milliseconds per stroke when replaying. */
const STEP_MS = 600;

/** The section of the card: a button until the learner asks for the strokes. */
export function strokesSection(character: string, base: string): HTMLElement {
  const section = h("section", { class: "strokes", "aria-label": t().strokeOrder });
  const show = h("button", { type: "button" }, t().showStrokes);
  show.addEventListener("click", () => void load(section, character, base));
  replace(section, show);
  return section;
}

async function load(section: HTMLElement, character: string, base: string): Promise<void> {
  replace(section, loading());
  try {
    const answer = ok(await call<HanjaStrokes | Problem>(`${base}/hanja/${encodeURIComponent(character)}/strokes`));
    replace(section, ...viewer(answer.body));
  } catch (error) {
    replace(
      section,
      errorBox(error, () => void load(section, character, base)),
    );
  }
}

/**
 * The strokes' paths appended to `group` (a group in Make Me a Hanzi's frame), first to last: outlines
 * filled, or, for strokes with only a centre line, the group marked `lines` and drawn as lines.
 */
export function strokePaths(group: SVGGElement, strokes: HanjaStrokes["strokes"]): SVGPathElement[] {
  if (strokes.some((stroke) => stroke.outline === null)) {
    group.setAttribute("class", "lines");
    group.setAttribute("stroke-width", String(LINE_WIDTH));
  }
  return strokes.map((stroke) => {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", stroke.outline ?? `M${stroke.median.map(([x, y]) => `${x} ${y}`).join("L")}`);
    group.append(path);
    return path;
  });
}

function viewer(data: HanjaStrokes): (HTMLElement | SVGSVGElement)[] {
  const total = data.strokes.length;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 1024 1024");
  svg.setAttribute("class", "stroke-drawing");
  svg.setAttribute("role", "img");
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("transform", "scale(1, -1) translate(0, -900)");
  const paths = strokePaths(group, data.strokes);
  svg.append(group);
  const counter = h("p", { class: "stroke-count", "aria-live": "polite" });
  let shown = total;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = (n: number) => {
    shown = Math.max(1, Math.min(total, n));
    paths.forEach((path, i) => path.setAttribute("class", i < shown - 1 ? "drawn" : i === shown - 1 ? "current" : "pending"));
    counter.textContent = t().strokeOf(shown, total);
    svg.setAttribute("aria-label", `${data.character}: ${t().strokeOf(shown, total)}`);
  };
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const button = (label: string, text: string, onclick: () => void) => h("button", { type: "button", "aria-label": label, onclick }, text);
  const controls = h(
    "p",
    { class: "stroke-controls" },
    button(t().strokePrevious, "◀", () => {
      stop();
      draw(shown - 1);
    }),
    button(t().strokeReplay, `↻ ${t().strokeReplay}`, () => {
      stop();
      draw(1);
      timer = setInterval(() => (shown >= total ? stop() : draw(shown + 1)), STEP_MS);
    }),
    button(t().strokeNext, "▶", () => {
      stop();
      draw(shown + 1);
    }),
  );
  draw(total);
  const note = data.form === "ko" ? null : h("p", { class: "stroke-note" }, data.form === "ja" ? t().strokesJapanese : t().strokesChinese);
  const source = h(
    "p",
    { class: "hint" },
    `${t().strokesSource} `,
    h("a", { href: data.source.url, lang: "en" }, data.source.name),
    ` (${data.source.license})`,
  );
  return [h("h2", {}, t().strokeOrder), note as HTMLElement, h("div", { class: "stroke-box" }, svg), counter, controls, source].filter(Boolean);
}
