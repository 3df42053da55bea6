/**
 * Builds dist/ once before the suite when it was not built from the current inputs (the pinned
 * Unihan release in pipeline/data/unihan/, or `UNIHAN_ZIP`), saying why.
 */
import { ensureDist } from "../scripts/ensureDist.ts";

export default async function setup(): Promise<void> {
  await ensureDist({ quiet: true });
}
