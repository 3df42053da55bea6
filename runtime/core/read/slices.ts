/**
 * Work written as a generator that yields where it may stop: run at once (`runAtOnce`, the
 * package's synchronous reader), or in slices of a few milliseconds with a turn of the event loop
 * between them (`runInSlices`, what the server answers `/read` with), so that a long reading or
 * the reader's preparation never holds up the other requests for longer than a slice.
 */

import type { Steps } from "../../format/steps.ts";

export { type Steps, runAtOnce } from "../../format/steps.ts";

/**
 * How long a slice runs before it lets the event loop turn, in milliseconds: a character's detail
 * waits at most about this long behind each reading under way (the work yields about every 100 µs).
 */
export const SLICE_MS = 2;

/** Work waiting for its next slice, oldest first: each runs one slice and says whether it is done. */
const waiting: (() => boolean)[] = [];
let ticking = false;

/**
 * One slice of the work that waited longest, then a timer for the next: one slice at a time
 * however many readings are under way, so a request that comes in waits behind one slice at
 * most, and a timer rather than `setImmediate` (a turn with nothing else to do then sleeps a
 * moment, about a millisecond), so that long readings leave the process time to spare: busy to
 * the last cycle, a process on a loaded machine was descheduled for tens of milliseconds at a
 * time, and the requests beside the readings waited as long. (On Deno, `setImmediate` runs its
 * callbacks before polling for I/O again: a request waited for every slice of a reading.)
 */
function tick(): void {
  const slice = waiting.shift();
  if (slice !== undefined && !slice()) waiting.push(slice);
  if (waiting.length > 0) setTimeout(tick, 0);
  else ticking = false;
}

/**
 * Runs the steps a slice of `sliceMs` at a time: the first slice at once (a short reading ends in
 * it), each later one in its turn with the slices of the other work under way (`tick`).
 */
export function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const slice = (): boolean => {
      const until = performance.now() + sliceMs;
      try {
        for (;;) {
          const next = steps.next();
          if (next.done) {
            resolve(next.value);
            return true;
          }
          if (performance.now() >= until) return false;
        }
      } catch (error) {
        reject(error);
        return true;
      }
    };
    if (slice()) return;
    waiting.push(slice);
    if (!ticking) {
      ticking = true;
      setTimeout(tick, 0);
    }
  });
}
