import type { Send } from "../http/sender.ts";
import type { QuizIds } from "../quiz/quizId.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { Random } from "../util/random.ts";

/** What interface B needs besides the data. */
export interface QuizConfig {
  store: QuotaStore;
  now: () => Date;
  random: Random;
  /** Minutes east of UTC of the metering day (Asia/Seoul: 540). */
  offsetMinutes: number;
  /** Trusted reverse-proxy hops in front of the server (0: use the socket's peer). */
  trustProxyHops: number;
  /** Bank account text shown in the payment instructions. */
  bankAccount: string;
  /** The app's body sender. */
  sendBody: Send;
  /** Signs and checks the gradeable `quiz_id`s (`QUIZ_SECRET`). */
  quizIds: QuizIds;
  /** The prefix a host strips before requests reach the service (links carry it), default none. */
  mountPath?: string;
}
