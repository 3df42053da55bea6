/**
 * The small Markdown subset the document's descriptions use: paragraphs, `## ` headings, `- `
 * lists, `code` and **bold**. Everything is escaped (`util/escapeHtml.ts`) before any tag is added.
 */
import { escapeHtml } from "../util/escapeHtml.ts";

/** One line of description text: escaped, with `code` and **bold**. */
export function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
}

/** A description as HTML blocks; `headingLevel` is the level `## ` maps to. */
export function markdown(text: string, headingLevel = 3): string {
  const out: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (items.length > 0) out.push(`<ul>${items.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>`);
    items = [];
  };
  for (const block of text.split(/\n{2,}/)) {
    const lines = block.split("\n");
    if (lines.every((line) => line.startsWith("- "))) {
      items.push(...lines.map((line) => line.slice(2)));
      continue;
    }
    flush();
    const heading = /^##\s+(\S.*)$/.exec(block);
    if (heading) out.push(`<h${headingLevel}>${inline(heading[1] ?? "")}</h${headingLevel}>`);
    else out.push(`<p>${lines.map(inline).join("<br>")}</p>`);
  }
  flush();
  return out.join("\n");
}
