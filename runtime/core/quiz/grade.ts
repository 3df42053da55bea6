/**
 * `POST /grade`: whether an answer to a quiz is right, from what the encrypted `quiz_id` carries
 * (nothing is stored): the key of the right option, or for a typed quiz every standard answer,
 * compared in `gradingForm` (any Unicode normalisation form, spaces aside).
 */
import type { IdiomRecord } from "../../format/records.ts";
import { type CharacterBank, gradingForm } from "./characterBank.ts";
import { answerMembers } from "./makeCharacterQuiz.ts";
import { type QuizClaims, QuizIdError } from "./quizId.ts";
import { QUIZ_TYPE_BY_NAME, isIdiomType } from "./types/index.ts";

/** What grading reads besides the claims: the idioms, their interface B JSON and the character bank (made on first use). */
export interface GradeSources {
  idioms: readonly IdiomRecord[];
  answerJson: readonly string[];
  bank(): CharacterBank;
}

/** The grade of `answer` to the quiz `id` whose claims are `claims`, as the JSON of one result. */
export function grade(id: string, claims: QuizClaims, answer: string, sources: GradeSources): string {
  const type = QUIZ_TYPE_BY_NAME[claims.type];
  const stale = () => new QuizIdError("names a question this data release does not have");
  let right: string;
  let accepted: readonly string[] = [];
  let members: string;
  if (isIdiomType(type)) {
    const idiom = sources.idioms[claims.subject];
    if (idiom === undefined) throw stale();
    right = claims.typed ? type.text(idiom, "ko") : String(claims.key);
    if (claims.typed) accepted = type.typedAnswers?.(sources.idioms, claims.subject) ?? [right];
    members = `"answer_idiom":${sources.answerJson[claims.subject]}`;
  } else {
    const bank = sources.bank();
    const subject =
      type.subject === "idiom"
        ? { kind: "idiom" as const, position: claims.subject, blank: claims.blank }
        : { kind: "character" as const, position: claims.subject };
    const asked = type.ask(bank, subject);
    if (asked === null) throw stale();
    right = claims.typed ? asked.right.text : String(claims.key);
    if (claims.typed) accepted = asked.accepted;
    members = answerMembers(bank, sources.answerJson, asked.character, type.subject === "idiom" ? claims.subject : undefined);
  }
  const correct = claims.typed ? accepted.some((text) => gradingForm(text) === gradingForm(answer)) : answer.trim() === right;
  const typed = claims.typed ? `,"accepted":${JSON.stringify(accepted)}` : "";
  return `{"quiz_id":${JSON.stringify(id)},"type":"${claims.type}","correct":${correct},"answer":${JSON.stringify(right)}${typed},${members}}`;
}
