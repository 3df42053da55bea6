/** Continuing with a value that may or may not be a promise, without making one when it is not. */

/**
 * `next(value)`, after the value arrives when it is a promise (or any thenable); no promise when
 * it is not. (Not named `then`: a module exporting `then` is itself a thenable to `import()`.)
 */
export function andThen<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return typeof (value as { then?: unknown } | null)?.then === "function" ? (value as Promise<T>).then(next) : next(value as T);
}
