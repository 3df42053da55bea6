/**
 * Work written as a generator that yields where it may stop, so that one implementation can run at
 * once or in slices with a turn of the event loop between them (`runInSlices`, core/read/slices.ts):
 * the reader's work, and decoding the words (`listWordsSteps`), which the build runs at once.
 */

/** Work that yields (nothing) where it may stop, and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to their end, without stopping. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
