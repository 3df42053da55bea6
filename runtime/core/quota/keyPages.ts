/**
 * Walking every key of a store in pages (`QuotaStore.keyPage`), with the event loop free between
 * pages: the listing, the export and the admin routes read a store of any size in bounded steps and,
 * when they stream what they read, in constant memory.
 */
import type { KeyPageQuery, KeyRecord, QuotaStore, StoredKeyStatus } from "./store.ts";

/** Keys read per page: one page costs a few milliseconds on SQLite and Redis, on a busy machine too. */
export const KEY_PAGE_SIZE = 250;

/** Lets timers, I/O and requests run between two steps of a long walk (all three runtimes have setTimeout). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Every key of `store` (optionally of one stored status), newest first unless `oldestFirst`, one page at a time. */
export async function* eachKey(
  store: QuotaStore,
  query: Omit<KeyPageQuery, "after" | "limit"> & { limit?: number } = {},
): AsyncGenerator<KeyRecord, void, undefined> {
  let after: string | null = null;
  for (;;) {
    const page = await store.keyPage({ ...query, after, limit: query.limit ?? KEY_PAGE_SIZE });
    yield* page.keys;
    if (page.next === null) return;
    after = page.next;
    await yieldToEventLoop();
  }
}

/** Every key of `store`, newest first, in one array: for the admin route and tests, where the answer is one document anyway. */
export async function allKeys(store: QuotaStore, status?: StoredKeyStatus): Promise<KeyRecord[]> {
  const keys: KeyRecord[] = [];
  for await (const key of eachKey(store, { status })) keys.push(key);
  return keys;
}
