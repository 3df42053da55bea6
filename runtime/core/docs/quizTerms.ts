/**
 * What interface B's schemas (`runtime/format/quizSchemas.ts`) say that the core decides, taken
 * from where each is decided: the quiz types and the reference's phrases for them, the free plan's
 * calls and the annual plan's price, and the usage history a key's status lists and the store keeps.
 */
import type { QuizSchemaTerms } from "../../format/quizSchemas.ts";
import { QUIZ_TYPES, type QuizType } from "../quiz/types/index.ts";
import { ANNUAL_PRICE_KRW, DAILY_LIMITS } from "../quota/plans.ts";
import { USAGE_KEEP_DAYS } from "../quota/retention.ts";
import { RECENT_USAGE_DAYS } from "../quota/usage.ts";
import { QUIZ_TYPE_DOCS } from "./quizTypeDocs.ts";

/** The terms of the service's interface B. */
export const QUIZ_TERMS: QuizSchemaTerms<QuizType> = {
  types: QUIZ_TYPES,
  typeDocs: QUIZ_TYPE_DOCS,
  freeDailyLimit: DAILY_LIMITS.free,
  annualPriceKrw: ANNUAL_PRICE_KRW,
  recentUsageDays: RECENT_USAGE_DAYS,
  usageKeepDays: USAGE_KEEP_DAYS,
};
