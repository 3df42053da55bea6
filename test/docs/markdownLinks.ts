/**
 * The relative links of the project's Markdown and whether each resolves: the file (or folder) it
 * names exists, and its `#anchor` is a heading of that file as GitHub slugs it (github-slugger, the
 * slugger GitHub's renderer follows: lower case, punctuation dropped, spaces to `-`, a repeated
 * heading numbered `-1`, `-2`). Links with a scheme (`https:`, `mailto:`) are not followed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import GithubSlugger from "github-slugger";

export interface Link {
  /** The line it is on, from 1. */
  line: number;
  target: string;
}

/** The text with fenced code blocks and inline code spans blanked (same lengths, so lines and offsets stay). */
function withoutCode(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== undefined) {
        if (opens !== undefined && opens[0] === fence[0] && opens.length >= fence.length && line.trim() === opens) fence = undefined;
        return blank(line);
      }
      if (opens !== undefined) {
        fence = opens;
        return blank(line);
      }
      return line.replace(/(`+).*?\1/g, blank);
    })
    .join("\n");
}

/** The heading's text as GitHub renders it before slugging: code, links, emphasis and tags reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\*(.+?)\*/g, "$1")
    .trim();
}

/** Every anchor a link may name in this file: its headings' slugs, and the `id`/`name` of its HTML anchors. */
export function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const m of withoutCode(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.+)$/gm)) {
    const start = m.index as number;
    found.add(slugger.slug(headingText(markdown.slice(start, start + m[0].length).replace(/^ {0,3}#{1,6}[ \t]+/, ""))));
  }
  for (const m of markdown.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) found.add(m[1] as string);
  return found;
}

/** The inline links `[text](target)` and reference definitions `[label]: target`, outside code. */
export function links(markdown: string): Link[] {
  const text = withoutCode(markdown);
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const found: Link[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ line: lineOf(m.index as number), target: m[1] as string });
  }
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) {
    found.push({ line: lineOf(m.index as number), target: m[1] as string });
  }
  return found;
}

/** How the check sees the repository: whether a path exists, and a Markdown file's text. */
export interface Files {
  exists(path: string): boolean;
  read(path: string): string;
}

/** The working tree under `root`. */
export const onDisk = (root: string): Files => ({
  exists: (path) => existsSync(join(root, path)),
  read: (path) => readFileSync(join(root, path), "utf8"),
});

/** Each link of `files` that does not resolve, with what is wrong: `file:line target: reason`. */
export function brokenLinks(files: string[], repo: Files): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let set = anchorsOf.get(path);
    if (!set) anchorsOf.set(path, (set = anchors(repo.read(path))));
    return set;
  };
  const broken: string[] = [];
  for (const file of files) {
    for (const { line, target } of links(repo.read(file))) {
      if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hashAt = target.indexOf("#");
      const pathPart = (hashAt < 0 ? target : target.slice(0, hashAt)).split("?")[0] as string;
      const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
      const path =
        pathPart === ""
          ? file
          : posix.normalize(pathPart.startsWith("/") ? pathPart.slice(1) : posix.join(posix.dirname(file), decodeURIComponent(pathPart))).replace(/\/$/, "");
      const where = `${file}:${line} ${target}`;
      if (path.startsWith("..")) broken.push(`${where}: leaves the repository`);
      else if (!repo.exists(path)) broken.push(`${where}: no such file`);
      else if (anchor !== undefined && !path.endsWith(".md")) broken.push(`${where}: an anchor into a file that is not Markdown`);
      else if (anchor !== undefined && !anchorsIn(path).has(anchor)) broken.push(`${where}: no heading "${anchor}" in ${path}`);
    }
  }
  return broken;
}

/**
 * The topics of test/bench/RESULTS.md a text points to by name (`see RESULTS.md, "Metrics"`,
 * `RESULTS.md "Node's memory after load"`, `RESULTS.md ("The reader's share of the CPU")`), a
 * quoted name that a comment wraps across lines read as one line.
 */
export function resultsTopics(text: string): string[] {
  const joined = text.replace(/\n\s*(?:\*(?!\/)|\/\/)?\s*/g, " ");
  return [...joined.matchAll(/RESULTS(?:\.md)?\)?,?\s*\(?"([^"]+)"/g)].map((m) => (m[1] as string).replace(/…$/, ""));
}

/** Whether a topic name is one of the `## ` headings of RESULTS.md, or the start of one. */
export function namesHeading(results: string, topic: string): boolean {
  return [...results.matchAll(/^## (.+)$/gm)].some((m) => (m[1] as string).startsWith(topic));
}
