/** The quiz view's "review on this device" panel: opt in, the questions due, review them, export, import, clear. */
import { h, replace } from "../dom.ts";
import { t } from "../i18n.ts";
import { type ReviewItem, REVIEW_CHANGED, clearReview, dueItems, exportReview, importReview, reviewItems, reviewOn, setReviewOn } from "../review.ts";

/** The panel; `review` starts a quiz of the items due. */
export function reviewPanel(review: (items: ReviewItem[]) => void): HTMLElement {
  const note = h("p", { class: "review-note", role: "status", tabindex: -1 });
  const on = h("input", { type: "checkbox", name: "review", checked: reviewOn(), onchange: () => setReviewOn(on.checked) });
  // Only this part follows the list, so that the control in use keeps its focus.
  const live = h("div", { class: "review-live" });
  const load = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    const added = importReview(await chosen.text());
    note.textContent = added === undefined ? t().reviewBadFile : t().reviewImported(added);
  };
  const clear = () => {
    clearReview();
    note.textContent = t().reviewCleared;
    note.focus();
  };
  const render = () => {
    const due = dueItems();
    const total = reviewItems().length;
    const file = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden", onchange: () => void load(file) });
    replace(
      live,
      h("p", { class: "review-count" }, t().reviewCount(due.length, total)),
      h(
        "div",
        { class: "buttons" },
        due.length > 0 ? h("button", { type: "button", class: "primary", onclick: () => review(dueItems()) }, t().reviewNow) : null,
        total > 0 ? h("a", { href: "#/writing?set=review", class: "button for-writing" }, t().writingOfQuiz) : null,
        total > 0 ? h("button", { type: "button", onclick: save }, t().reviewExport) : null,
        h("label", { class: "button file" }, t().reviewImport, file),
        total > 0 ? h("button", { type: "button", onclick: clear }, t().reviewClear) : null,
      ),
    );
  };
  const panel = h(
    "section",
    { class: "review", "aria-labelledby": "review-title" },
    h("h2", { id: "review-title" }, t().reviewTitle),
    h("div", { class: "field check" }, h("label", {}, on, ` ${t().reviewKeep}`), h("span", { class: "hint" }, t().reviewHint)),
    live,
    note,
  );
  // The panel follows the list (answers recorded, an import, a clear) for as long as it is shown.
  const follow = () => (panel.isConnected ? render() : removeEventListener(REVIEW_CHANGED, follow));
  addEventListener(REVIEW_CHANGED, follow);
  render();
  return panel;
}

/** Downloads the list as a file (made on this device; nothing is sent). */
function save(): void {
  const url = URL.createObjectURL(new Blob([exportReview()], { type: "application/json" }));
  const link = h("a", { href: url, download: `hanja-review-${new Date().toISOString().slice(0, 10)}.json` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
