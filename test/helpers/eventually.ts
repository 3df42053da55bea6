/** Waits until `check` passes, polling every 50 ms for at most 10 s (no timing is asserted; a failed check counts as not yet). */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}
