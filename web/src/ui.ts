/** Pieces every view uses: loading and error states, the developer's request panel, the quota line. */
import { type Answer, type Described, KEY_PLACEHOLDER, NetworkError, type Quota } from "./api.ts";
import { type Child, h } from "./dom.ts";
import { t } from "./i18n.ts";

/** A problem-details body as the service sends it. */
export interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  param?: string;
  status?: number;
}

/** The "loading" state of a region (announced politely to screen readers). */
export function loading(): HTMLElement {
  return h("p", { class: "loading", role: "status" }, t().loading);
}

/** An error message for a failed call: the service's own detail, or the network message. */
export function errorBox(error: unknown, retry?: () => void): HTMLElement {
  const text = error instanceof NetworkError ? t().networkError : isProblem(error) ? (error.detail ?? error.title ?? t().error) : t().error;
  return h(
    "div",
    { class: "error", role: "alert" },
    h("p", {}, h("strong", {}, `${t().error}: `), text),
    retry ? h("button", { type: "button", onclick: retry }, t().retry) : null,
  );
}

/** Whether a value looks like a problem-details body. */
export function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && "code" in value && "status" in value;
}

/** Throws the problem body of an answer that is not a success, so views handle one error path. */
export function ok<T>(answer: Answer<T | Problem>): Answer<T> {
  if (answer.status >= 400) throw answer.body;
  return answer as Answer<T>;
}

/** A button that puts `text` on the clipboard; its name says what it copies ("Copy: curl"). */
export function copyButton(text: string, what: string): HTMLButtonElement {
  const onclick = (event: Event) => {
    const button = event.currentTarget as HTMLButtonElement;
    void navigator.clipboard?.writeText(text).then(
      () => (button.textContent = t().copied),
      () => {},
    );
  };
  return h("button", { type: "button", class: "copy", "aria-label": `${t().copy}: ${what}`, onclick }, t().copy);
}

/** The developer's panel: the request a view made, as a URL and a curl command, each copyable. */
export function requestPanel(request: Described): HTMLElement {
  const copyable = (label: string, text: string) =>
    h("div", { class: "copyable" }, h("span", { class: "copy-label" }, label), h("code", {}, text), copyButton(text, label));
  const keyed = request.curl.includes(KEY_PLACEHOLDER);
  return h(
    "details",
    { class: "api" },
    h("summary", {}, t().apiRequest),
    copyable(t().apiUrl, request.url),
    copyable(t().apiCurl, request.curl),
    keyed ? h("p", { class: "hint" }, t().keyPlaceholderNote) : null,
  );
}

let quotaLine: HTMLElement | undefined;
let lastQuota: { quota: Quota; plan: string } | undefined;
let metered = false;

/** Shows the quota line on views whose calls are metered (the quiz) and hides it on the others, which spend nothing. */
export function meteredView(on: boolean): void {
  metered = on;
  renderQuota();
}

/** The page's quota line (created once by the shell). */
export function quotaElement(): HTMLElement {
  quotaLine ??= h("p", { class: "quota", "aria-live": "polite" });
  renderQuota();
  return quotaLine;
}

/** Shows the quota a metered answer or /me reported. */
export function showQuota(quota: Quota | undefined, plan: string): void {
  if (!quota) return;
  lastQuota = { quota, plan };
  renderQuota();
}

function renderQuota(): void {
  if (!quotaLine) return;
  if (!lastQuota || !metered) {
    quotaLine.textContent = "";
    quotaLine.hidden = true;
    return;
  }
  const { quota, plan } = lastQuota;
  quotaLine.hidden = false;
  quotaLine.textContent =
    plan === "demo" ? t().quotaDemo(quota.remaining, quota.limit) : t().quotaKey(quota.remaining, quota.limit, t().planNames[plan] ?? plan);
  quotaLine.classList.toggle("low", quota.remaining <= 3);
}

/** What the demo's 429 says: the quota is gone for this address, when it comes back, and the way to a key. */
export function exhaustedBox(quota: Quota | undefined): HTMLElement {
  const back = quota?.retryAfter !== undefined ? new Date(Date.now() + quota.retryAfter * 1000) : undefined;
  return h(
    "div",
    { class: "error exhausted", role: "alert" },
    h("h2", {}, t().exhaustedTitle),
    h("p", {}, t().exhausted),
    back ? h("p", {}, t().exhaustedRetry(back.toLocaleString(undefined, { hour: "2-digit", minute: "2-digit", month: "short", day: "numeric" }))) : null,
    h("p", {}, h("a", { href: "#/key", class: "button" }, t().exhaustedKey)),
  );
}

/** A search form (`role="search"`) of the given fields and a Search button; `submit` runs instead of a page load. */
export function searchForm(submit: () => void, ...fields: Child[]): HTMLFormElement {
  const onsubmit = (event: Event) => {
    event.preventDefault();
    submit();
  };
  return h("form", { role: "search", class: "search", onsubmit }, fields, h("button", { type: "submit", class: "primary" }, t().search));
}
