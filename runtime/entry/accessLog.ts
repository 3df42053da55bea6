/** The access log: one JSON line per request on stdout, written in batches so logging stays cheap. */
import type { AccessLogEntry } from "../core/app.ts";

export interface AccessLog {
  write(entry: AccessLogEntry): void;
  flush(): void;
}

/** Batches lines and writes them every 100 ms or every 64 KiB. */
export function createAccessLog(enabled: boolean): AccessLog {
  if (!enabled) return { write: () => {}, flush: () => {} };
  let buffer = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (buffer) process.stdout.write(buffer);
    buffer = "";
  };
  return {
    write(entry) {
      buffer += `${JSON.stringify(entry)}\n`;
      if (buffer.length > 65_536) flush();
      else timer ??= setTimeout(flush, 100);
    },
    flush,
  };
}
