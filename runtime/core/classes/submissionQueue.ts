/**
 * Submissions to one class quiz, one at a time in this process: each one's checks (the name, the
 * room left), the count on the teacher's key and the store's write run before the next one's
 * checks, so students who submit together are charged only for what is stored. Across instances
 * the store's atomic write still decides (at most one count per other instance may then be for a
 * submission refused). Bounded: past `MAX_WAITING` submissions waiting on one class quiz, the next
 * is refused at once (the caller answers `429` with `Retry-After`), so no client can queue
 * unbounded work.
 */

/** Submissions that may wait on one class quiz in one process. */
export const MAX_WAITING = 256;

export class SubmissionQueue {
  private readonly queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();

  /** Runs `work` after the submissions to `code` before it; null (nothing run) when `MAX_WAITING` already wait. */
  run<T>(code: string, work: () => Promise<T>): Promise<T> | null {
    const queue = this.queues.get(code) ?? { tail: Promise.resolve(), waiting: 0 };
    if (queue.waiting >= MAX_WAITING) return null;
    queue.waiting++;
    this.queues.set(code, queue);
    const result = queue.tail.then(work);
    queue.tail = result.then(
      () => this.done(code, queue),
      () => this.done(code, queue),
    );
    return result;
  }

  private done(code: string, queue: { waiting: number }): void {
    if (--queue.waiting === 0 && this.queues.get(code) === queue) this.queues.delete(code);
  }
}
