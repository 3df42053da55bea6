/**
 * What the API reference says of the quiz types (the `GET /quiz` description, the `Quiz` and
 * `Choice` schemas, the `difficulty` parameter, the overview), each sentence made from the types'
 * declarations in `../quiz/types/`, so a new type is described without a word written here.
 */
import { QUIZ_TYPE_LIST } from "../quiz/types/index.ts";
import { type AnyQuizType, HARD_POOLS, type HardPool } from "../quiz/types/quizType.ts";

/** "a and b", "a, b and c" (or with "or"): a list in reference prose. */
function series(items: readonly string[], conjunction: "and" | "or"): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

/** The types' names as code, in a series joined with "and". */
function names(types: readonly AnyQuizType[]): string {
  return series(
    types.map((type) => `\`${type.name}\``),
    "and",
  );
}

/** What the reference says of `types`: each line and sentence is made from their declarations. */
export function quizTypeDocs(types: readonly AnyQuizType[]) {
  return {
    /** One Markdown list item per type, for the operation's description. */
    list: types.map(
      (type) => `- \`${type.name}\`: \`prompt\` is ${type.docs.prompt}; each choice's \`text\` is ${type.docs.text}, \`hangul\` ${type.docs.hangul}.`,
    ),
    /** The quiz's `prompt` field. */
    prompt: `What is asked about: ${series(
      types.map((type) => `${type.docs.prompt} (\`${type.name}\`)`),
      "or",
    )}; never a \`literal\`.`,
    /** A choice's `text` field. */
    text: `Displayed value: ${series(
      [...new Set(types.map((type) => type.docs.text))].map((text) => `${text} (${names(types.filter((type) => type.docs.text === text))})`),
      "or",
    )}.`,
    /** A choice's `hangul` field. */
    hangul: series(
      [...new Set(types.map((type) => type.docs.hangul))].map((hangul) => `${hangul} (${names(types.filter((type) => type.docs.hangul === hangul))})`),
      "or",
    ),
    /** Where `difficulty=hard` draws from, per pool. */
    hard: series(
      (Object.keys(HARD_POOLS) as HardPool[])
        .filter((pool) => types.some((type) => type.hardPool === pool))
        .map((pool) => `from ${HARD_POOLS[pool]} (${names(types.filter((type) => type.hardPool === pool))})`),
      "or",
    ),
    /** The types with a wrong option that shows the answer's 음 (`sameEumOption`), as a sentence; empty when none has. */
    sameEum: types.some((type) => type.over === "characters" && type.sameEumOption)
      ? `At either difficulty one wrong choice of ${names(types.filter((type) => type.over === "characters" && type.sameEumOption))} shows the answer's 음 (\`hangul\`, another 훈) whenever the pool has one, so the 음 alone never gives the answer away.`
      : "",
  };
}

/** What the reference says of the service's quiz types. */
export const QUIZ_TYPE_DOCS = quizTypeDocs(QUIZ_TYPE_LIST);
