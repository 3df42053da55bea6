/**
 * Builds dist/ once before the suite when it is missing or older than its inputs, from the real
 * Unihan 17.0.0 data beside the project (`../shared/unihan`) or `UNIHAN_ZIP`.
 */
import { ensureDist } from "../scripts/ensureDist.ts";

export default async function setup(): Promise<void> {
  await ensureDist({ quiet: true });
}
