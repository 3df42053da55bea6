/**
 * The learner's review list, on this device only (localStorage, opt-in; nothing is sent to the
 * server): the questions missed, each with the schedule of a spaced-repetition card (FSRS, by the
 * ts-fsrs library) that brings it back: soon after a miss, further apart after each right answer.
 */
import { type CardInput, Rating, createEmptyCard, fsrs } from "ts-fsrs";
import { storages } from "./api.ts";
import { QUIZ_TYPE_BY_NAME, type Quiz } from "../../runtime/core/quiz/types/index.ts";

const LIST = "hanja-page-review";
const ON = "hanja-page-review-on";
const scheduler = fsrs();

/** A question kept for review: the quiz with its answer, and its card's schedule. */
export interface ReviewItem {
  quiz: Quiz;
  card: CardInput;
}

/** What an exported file holds. */
interface ReviewFile {
  format: "hanja-page-review";
  version: 1;
  items: ReviewItem[];
}

function storage(): Storage | undefined {
  return storages().computer;
}

/** Whether the learner chose to keep missed questions on this device. */
export function reviewOn(): boolean {
  return storage()?.getItem(ON) === "1";
}

/** Turns keeping missed questions on or off (the list itself stays until cleared). */
export function setReviewOn(on: boolean): void {
  if (on) storage()?.setItem(ON, "1");
  else storage()?.removeItem(ON);
  dispatchEvent(new Event(REVIEW_CHANGED));
}

/** The list as stored (empty when there is none or it cannot be read). */
export function reviewItems(): ReviewItem[] {
  try {
    return parse(storage()?.getItem(LIST) ?? "") ?? [];
  } catch {
    return [];
  }
}

/** The event the window gets when the list changes, so that what shows it can follow. */
export const REVIEW_CHANGED = "hanja-review-changed";

function save(items: ReviewItem[]): void {
  const file: ReviewFile = { format: "hanja-page-review", version: 1, items };
  try {
    if (items.length === 0) storage()?.removeItem(LIST);
    else storage()?.setItem(LIST, JSON.stringify(file));
  } catch {
    // Storage full or refused: the list stays as it was.
  }
  dispatchEvent(new Event(REVIEW_CHANGED));
}

/** A question is the same question when its type and prompt are (a quiz_id differs on every draw). */
function same(a: Quiz, b: Quiz): boolean {
  return a.type === b.type && a.prompt === b.prompt;
}

/** Records an answer: a miss puts the question in the list (when review is on); a question already in it is rescheduled. */
export function recordAnswer(quiz: Quiz, correct: boolean, now = new Date()): void {
  const items = reviewItems();
  const index = items.findIndex((item) => same(item.quiz, quiz));
  if (index < 0 && (correct || !reviewOn())) return;
  const card = index < 0 ? createEmptyCard(now) : items[index]?.card;
  if (!card) return;
  const next = scheduler.next(card, now, correct ? Rating.Good : Rating.Again).card;
  const item = { quiz, card: next };
  if (index < 0) items.push(item);
  else items[index] = item;
  save(items);
}

/** The questions due now, the longest due first. */
export function dueItems(now = new Date()): ReviewItem[] {
  const time = (item: ReviewItem) => new Date(item.card.due).getTime();
  return reviewItems()
    .filter((item) => time(item) <= now.getTime())
    .sort((a, b) => time(a) - time(b));
}

/** Empties the list. */
export function clearReview(): void {
  save([]);
}

/** The list as a file's text, to keep or move to another device. */
export function exportReview(): string {
  return JSON.stringify({ format: "hanja-page-review", version: 1, items: reviewItems() } satisfies ReviewFile, null, 1);
}

/** Adds the questions of an exported file to the list (a question already in it keeps its schedule); the number added, or `undefined` for a file that is not one. */
export function importReview(text: string): number | undefined {
  let incoming: ReviewItem[] | undefined;
  try {
    incoming = parse(text);
  } catch {
    return undefined;
  }
  if (!incoming) return undefined;
  const items = reviewItems();
  const added = incoming.filter((item) => !items.some((kept) => same(kept.quiz, item.quiz)));
  save([...items, ...added]);
  return added.length;
}

/** The items of a review file's text, or `undefined` when it is not one (checked field by field: it may come from anywhere). */
function parse(text: string): ReviewItem[] | undefined {
  if (!text) return [];
  const file = JSON.parse(text) as Partial<ReviewFile>;
  if (file?.format !== "hanja-page-review" || !Array.isArray(file.items)) return undefined;
  const valid = (item: ReviewItem) =>
    typeof item?.quiz?.prompt === "string" &&
    Object.hasOwn(QUIZ_TYPE_BY_NAME, item.quiz.type) &&
    typeof item.quiz.answer === "string" &&
    Array.isArray(item.quiz.choices) &&
    item.quiz.choices.every((choice) => typeof choice?.key === "string" && typeof choice.text === "string") &&
    !Number.isNaN(new Date(item.card?.due as string).getTime());
  return file.items.every(valid) ? file.items : undefined;
}
