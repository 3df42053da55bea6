/**
 * A `createApp` option that cannot be used, named by the option: an embedding reads `option` and
 * `detail`, and the server's start-up names the environment variable behind the option from
 * `option` alone (never by reading the message). The message is `option: detail`.
 */
import type { AppOptions } from "./app.ts";

export class AppOptionError extends Error {
  constructor(
    /** The option at fault (`hanjaBase`), as `AppOptions` names it. */
    readonly option: keyof AppOptions,
    /** What is wrong with it, without its name. */
    readonly detail: string,
  ) {
    super(`${option}: ${detail}`);
    this.name = "AppOptionError";
  }
}
