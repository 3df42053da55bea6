/**
 * A large bank statement for the memory test and probe of `keys deposits`: every line a deposit
 * whose depositor names no key (the lines its report writes out one by one), in UTF-8.
 */
import { createWriteStream } from "node:fs";

/** Writes a statement of `bytes` or a little more to `file`, with the lines `special` gives at their line numbers; resolves with its last line's number. */
export async function bigStatement(file: string, bytes: number, special: Record<number, string> = {}): Promise<number> {
  const out = createWriteStream(file);
  out.write("거래일시,적요,보낸분,출금액,입금액,잔액\n");
  let written = 0;
  let line = 2;
  for (; written < bytes; line++) {
    const text = special[line] ?? `2026-11-${String(1 + (line % 28)).padStart(2, "0")} 09:15:02,타행이체,홍길동${line},0,"9,900","${line * 7}"\n`;
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return line - 1;
}
