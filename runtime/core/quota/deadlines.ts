/**
 * One time bound for many calls, kept with one timer. Every call gets the same bound, so deadlines
 * come in the order calls are made and a queue holds them; the timer is armed for the oldest call
 * still waiting. A timer per call (a `setTimeout`, a `Promise.race` and its clean-up) costs more
 * than the rest of a fast store call.
 */

/** A call waiting for its answer: `expire` runs at its deadline unless it has settled by then. */
interface Deadline {
  at: number;
  settled: boolean;
  expire: () => void;
}

/** The deadlines of calls bounded to `timeoutMs` milliseconds each. */
export class Deadlines {
  private readonly queue: Deadline[] = [];
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly timeoutMs: number) {}

  /** A deadline `timeoutMs` from now; mark it `settled` when the call answers. */
  private add(expire: () => void): Deadline {
    const deadline = { at: performance.now() + this.timeoutMs, settled: false, expire };
    this.queue.push(deadline);
    this.timer ??= setTimeout(() => this.sweep(), this.timeoutMs);
    return deadline;
  }

  /**
   * `promise`, or the error `late()` makes when it has not settled within the bound; a rejection
   * passes through `failed` when given (one promise either way).
   */
  bound<T>(promise: Promise<T>, late: () => Error, failed: (error: unknown) => unknown = (error) => error): Promise<T> {
    return new Promise((resolve, reject) => {
      const deadline = this.add(() => reject(late()));
      promise.then(
        (value) => {
          deadline.settled = true;
          resolve(value);
        },
        (error: unknown) => {
          deadline.settled = true;
          reject(failed(error));
        },
      );
    });
  }

  /** Expires the calls past their deadline, drops the settled ones, and re-arms for the oldest still waiting. */
  private sweep(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.head < this.queue.length) {
      const deadline = this.queue[this.head] as Deadline;
      if (!deadline.settled && deadline.at > now) break;
      this.head++;
      if (!deadline.settled) {
        deadline.settled = true;
        deadline.expire();
      }
    }
    this.queue.splice(0, this.head);
    this.head = 0;
    const next = this.queue[0];
    if (next !== undefined) this.timer = setTimeout(() => this.sweep(), Math.max(1, next.at - now));
  }
}
