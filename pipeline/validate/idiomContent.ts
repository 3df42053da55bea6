import type { QuizTables } from "../../runtime/format/dist.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/format/records.ts";
import { buildQuizTables } from "../build/quizTables.ts";
import { InputError } from "../load/types.ts";
import { closeMeaningProblems, meaningScores } from "./closeMeanings.ts";
import { type AllowedRow, type ExceptionRow, type GroupRow, type MatureRow, readingExceptions, resolveIdiomLists } from "./idiomLists.ts";
import { reviewProblems, type ReviewedRow, type ThemeRow } from "./idiomReview.ts";
import { type IdiomRow, validateIdioms } from "./idioms.ts";

/** idioms.csv and the lists beside it, as parsed rows. */
export interface IdiomSources {
  idiomRows: IdiomRow[];
  groupRows: GroupRow[];
  allowedRows: AllowedRow[];
  matureRows: MatureRow[];
  exceptionRows: ExceptionRow[];
  /** The review by theme (idiom-themes.csv, idiom-pairs-reviewed.csv); none = not checked. */
  themeRows?: ThemeRow[];
  reviewedRows?: ReviewedRow[];
}

/**
 * Validates the idioms (docs/rules.md "Source data", giveaways, reading exceptions) and then the lists, the review by
 * theme and the close meanings against them; fails with every problem of every file. Returns the idioms and the
 * quiz tables made from them.
 */
export function validateIdiomContent(sources: IdiomSources, byCharacter: ReadonlyMap<string, HanjaRecord>): { idioms: IdiomRecord[]; quiz: QuizTables } {
  const problems: string[] = [];
  const exceptions = readingExceptions(sources.exceptionRows, problems);
  let idioms: IdiomRecord[];
  try {
    idioms = validateIdioms(sources.idiomRows, byCharacter, "idioms.csv", exceptions);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // The lists and close meanings are checked against valid idioms only.
    throw new InputError([error.message, ...problems].join("\n  "));
  }
  const lists = resolveIdiomLists(idioms, { groups: sources.groupRows, allowed: sources.allowedRows, mature: sources.matureRows }, problems);
  reviewProblems(idioms, { themeRows: sources.themeRows ?? [], reviewedRows: sources.reviewedRows ?? [], groupRows: sources.groupRows }, lists, problems);
  const matrix = meaningScores(idioms);
  const lineOf = new Map(sources.idiomRows.map((row) => [Number(row.values.idx), row.line]));
  if (problems.length === 0) problems.push(...closeMeaningProblems(idioms, matrix, lists, lineOf));
  if (problems.length > 0) throw new InputError(`idiom content: ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  return { idioms, quiz: buildQuizTables(idioms, lists, matrix) };
}
