/**
 * Work written as a generator that yields where it may stop: run at once (`runAtOnce`, the
 * package's synchronous reader), or in slices of a few milliseconds with a turn of the event loop
 * between them (`runInSlices`, what the server answers `/read` with), so that a long reading or
 * the reader's preparation never holds up the other requests for longer than a slice.
 */
import { nextTurn } from "../util/nextTurn.ts";

/** Work that yields (nothing) where it may stop, and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/**
 * How long a slice runs before it lets the event loop turn, in milliseconds: a character's detail
 * waits at most about this long behind each reading under way (the work yields about every 100 µs).
 */
export const SLICE_MS = 2;

/** Runs the steps to their end, without stopping. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs the steps a slice of `SLICE_MS` at a time, the next slice in the next turn of the event loop. */
export function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const slice = (): void => {
      const until = performance.now() + sliceMs;
      try {
        for (;;) {
          const next = steps.next();
          if (next.done) {
            resolve(next.value);
            return;
          }
          if (performance.now() >= until) {
            nextTurn(slice);
            return;
          }
        }
      } catch (error) {
        reject(error);
      }
    };
    slice();
  });
}
