/** A set of keys in every state, for tests that move keys between stores. */
import { confirmKey, revokeKey } from "../../runtime/core/quota/keyActions.ts";
import type { QuotaStore } from "../../runtime/core/quota/store.ts";
import { keyRecord } from "./contractCases.ts";

/** Pending, confirmed, revoked and expired keys, with every optional field used; a pending and a revoked one erased. */
export async function fillWithKeys(store: QuotaStore): Promise<void> {
  const now = new Date("2025-03-05T12:00:00.000Z");
  const keys = [
    keyRecord({
      created_at: "2025-01-01T00:00:00.000Z",
      applicant: { name: "김철수", email: "Kim@Example.com", phone: "+82 10-1234-5678", depositor: "김철수" },
    }),
    keyRecord({ created_at: "2025-01-02T00:00:00.000Z" }),
    keyRecord({ created_at: "2025-01-03T00:00:00.000Z" }),
    keyRecord({ created_at: "2025-01-04T00:00:00.000Z", email: "pending@example.com" }),
    keyRecord({ created_at: "2025-01-05T00:00:00.000Z", applicant: { name: "이영희", email: "lee@example.com", phone: "010-9876-5432", depositor: "이영희" } }),
  ];
  for (const key of keys) await store.insertKey(key);
  await confirmKey(store, keys[0]!.id, now);
  await confirmKey(store, keys[1]!.id, new Date("2023-01-01T00:00:00.000Z"));
  await revokeKey(store, keys[2]!.id, now);
  await store.eraseApplicant(keys[2]!.id, "revoked", "2025-04-05T00:00:00.000Z");
  await store.eraseApplicant(keys[4]!.id, "pending_deposit", "2025-02-05T00:00:00.000Z");
}
