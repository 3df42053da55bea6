/**
 * How Node was started, for the server's V8 settings (`youngGeneration.ts`, `oldGeneration.ts`),
 * each of which an operator who starts Node with that option keeps.
 */

/** How Node was started: its own options and NODE_OPTIONS. */
export interface NodeStart {
  execArgv: readonly string[];
  nodeOptions: string | undefined;
}

/** How this process was started. */
export function thisStart(): NodeStart {
  return { execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS };
}

/** Whether Node was started with the V8 option `name` (`max-semi-space-size`), in either spelling (`-` or `_`), on its command line or in NODE_OPTIONS. */
export function optionGiven({ execArgv, nodeOptions }: NodeStart, name: string): boolean {
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((option) => (option.split("=")[0] as string).replaceAll("_", "-") === `--${name}`);
}
