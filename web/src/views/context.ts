/** What the shell hands every view. */
import type { Bases } from "../api.ts";

/** A view's inputs: the bases, its path argument and query from the URL's fragment, and navigation. */
export interface ViewContext {
  bases: Bases;
  /** The path argument (`水` of `#/hanja/水`), decoded; empty when there is none. */
  arg: string;
  /** The view's state from the fragment (`#/hanja?q=수&page=2`). */
  params: URLSearchParams;
  /** Goes to another view state: a new history entry, so Back returns here. */
  go(hash: string): void;
  /** Whether this render is still the current one (a later navigation makes it stale). */
  current(): boolean;
  /** Whether an earlier view of this page is in the tab's history (Back stays on the page). */
  canGoBack: boolean;
}

/** A view renders into `main`. */
export type View = (main: HTMLElement, ctx: ViewContext) => void | Promise<void>;

/** The fragment of a view with the given query (empty values left out). */
export function hashOf(path: string, query: Record<string, string | number | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ""}`;
}
