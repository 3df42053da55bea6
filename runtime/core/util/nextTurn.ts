/** Runs `run` after the I/O callbacks of this turn of the event loop (setImmediate where the runtime has it). */
export const nextTurn: (run: () => void) => void =
  typeof globalThis.setImmediate === "function" ? (run) => void globalThis.setImmediate(run) : (run) => void setTimeout(run, 0);
