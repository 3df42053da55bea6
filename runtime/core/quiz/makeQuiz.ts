/**
 * Multiple-choice quizzes over the idioms (SPEC §4): three types, distinct choice texts, the
 * answer at a uniformly random position, no distractor that would also be a right answer.
 */
import type { IdiomRecord } from "../data/records.ts";
import { type Random, randomBase62 } from "./random.ts";

export const QUIZ_TYPES = ["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"] as const;
export type QuizType = (typeof QUIZ_TYPES)[number];

/** The instruction sentence of each type. */
export const QUESTIONS: Record<QuizType, string> = {
  meaning_to_idiom: "다음 뜻을 가진 사자성어를 고르세요.",
  idiom_to_meaning: "다음 사자성어의 뜻으로 알맞은 것을 고르세요.",
  hangul_to_hanja: "다음 독음에 알맞은 한자 표기를 고르세요.",
};

export interface Choice {
  key: string;
  text: string;
  hangul: string;
}

export interface Quiz {
  quiz_id: string;
  type: QuizType;
  question: string;
  prompt: string;
  choices: Choice[];
  answer: string;
  answer_idiom: IdiomRecord;
}

/** What each type shows as the prompt and as a choice's text. */
const VIEW: Record<QuizType, { prompt: (i: IdiomRecord) => string; text: (i: IdiomRecord) => string }> = {
  meaning_to_idiom: { prompt: (i) => i.meaning, text: (i) => i.hanja },
  idiom_to_meaning: { prompt: (i) => i.hanja, text: (i) => i.meaning },
  hangul_to_hanja: { prompt: (i) => i.hangul, text: (i) => i.hanja },
};

export interface QuizRequest {
  /** A fixed type, or undefined for a random type per quiz. */
  type: QuizType | undefined;
  choices: number;
  count: number;
  /** idx values that must not be answers. */
  exclude: ReadonlySet<number>;
}

/**
 * `count` quizzes with distinct answers drawn from the idioms not excluded. Returns null when
 * fewer than `count` idioms are left to be answers.
 */
export function makeQuizzes(idioms: readonly IdiomRecord[], request: QuizRequest, random: Random): Quiz[] | null {
  const pool = request.exclude.size === 0 ? idioms : idioms.filter((i) => !request.exclude.has(i.idx));
  if (pool.length < request.count) return null;
  return sample(pool, request.count, random).map((answer) => {
    const type = request.type ?? QUIZ_TYPES[random.int(QUIZ_TYPES.length)] ?? "meaning_to_idiom";
    return makeQuiz(idioms, answer, type, request.choices, random);
  });
}

function makeQuiz(idioms: readonly IdiomRecord[], answer: IdiomRecord, type: QuizType, size: number, random: Random): Quiz {
  const view = VIEW[type];
  const prompt = view.prompt(answer);
  const texts = new Set([view.text(answer)]);
  const distractors: IdiomRecord[] = [];
  // Random candidates drawn until there are enough; one already drawn, whose text repeats a
  // choice, or that fits the prompt too (a second right answer) is skipped. A bounded number of
  // draws keeps a tiny idiom set from looping forever.
  const tried = new Set<number>([answer.idx]);
  for (let draws = 0; distractors.length < size - 1 && tried.size < idioms.length && draws < idioms.length * 4; draws++) {
    const candidate = idioms[random.int(idioms.length)] as IdiomRecord;
    if (tried.has(candidate.idx)) continue;
    tried.add(candidate.idx);
    if (texts.has(view.text(candidate)) || view.prompt(candidate) === prompt) continue;
    texts.add(view.text(candidate));
    distractors.push(candidate);
  }
  const position = random.int(distractors.length + 1);
  const ordered = [...distractors];
  ordered.splice(position, 0, answer);
  return {
    quiz_id: `qz_${randomBase62(random, 16)}`,
    type,
    question: QUESTIONS[type],
    prompt,
    choices: ordered.map((idiom, i) => ({ key: String(i + 1), text: view.text(idiom), hangul: idiom.hangul })),
    answer: String(position + 1),
    answer_idiom: { idx: answer.idx, hanja: answer.hanja, hangul: answer.hangul, chosung: answer.chosung, meaning: answer.meaning },
  };
}

/** `k` distinct items, uniformly (partial Fisher–Yates; for a few out of many, draws with rejection). */
export function sample<T>(items: readonly T[], k: number, random: Random): T[] {
  if (k * 4 <= items.length) {
    const picked = new Set<number>();
    while (picked.size < k) picked.add(random.int(items.length));
    return [...picked].map((i) => items[i] as T);
  }
  const copy = [...items];
  for (let i = 0; i < k && i < copy.length; i++) {
    const j = i + random.int(copy.length - i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, k);
}

/**
 * The quiz as JSON, built from memoised JSON strings of the idiom fields: the same text as
 * `JSON.stringify(quiz)` at a fraction of the cost on the hot path.
 */
export function quizJson(quiz: Quiz): string {
  const a = quiz.answer_idiom;
  const choices = quiz.choices.map((c) => `{"key":"${c.key}","text":${json(c.text)},"hangul":${json(c.hangul)}}`).join(",");
  return (
    `{"quiz_id":"${quiz.quiz_id}","type":"${quiz.type}","question":${json(quiz.question)},"prompt":${json(quiz.prompt)},"choices":[${choices}],"answer":"${quiz.answer}",` +
    `"answer_idiom":{"idx":${a.idx},"hanja":${json(a.hanja)},"hangul":${json(a.hangul)},"chosung":${json(a.chosung)},"meaning":${json(a.meaning)}}}`
  );
}

// Idiom texts are a small closed set, so their JSON forms are kept once computed.
const jsonCache = new Map<string, string>();
function json(text: string): string {
  let out = jsonCache.get(text);
  if (out === undefined) {
    out = JSON.stringify(text);
    if (jsonCache.size < 20_000) jsonCache.set(text, out);
  }
  return out;
}
