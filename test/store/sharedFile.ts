/**
 * What the SQLite store promises to processes sharing one database file: a key confirmed,
 * revoked or created through another connection is what lookups return from the next turn of the
 * event loop on (the next requests read), although lookups are cached; its own changes are seen
 * at once. Run on every driver (sqlite.test.ts on Node, smoke.ts on Bun and Deno).
 */
import assert from "node:assert/strict";
import type { QuotaStore } from "../../runtime/core/quota/store.ts";
import { keyRecord, plaintextKey, sha256 } from "./contractCases.ts";

export const SHARED_FILE_CASE = "a key changed through another connection is seen from the next turn of the event loop";

/** Resolves after the current turn of the event loop (the store checks for changes once per turn). */
const nextTurn = () => new Promise<void>((done) => (typeof setImmediate === "function" ? setImmediate(done) : setTimeout(done, 0)));

/** `open` opens a new connection to the same database file each time it is called. */
export async function sharedFileCase(open: () => Promise<QuotaStore>): Promise<void> {
  const server = await open();
  const operator = await open();
  try {
    const key = keyRecord({ plan: "free", status: "pending_deposit" });
    await server.insertKey(key);
    assert.equal((await server.keyByHash(key.hash))?.status, "pending_deposit");
    assert.equal((await server.keyByHash(key.hash))?.status, "pending_deposit");

    await operator.updateKey(key.id, { plan: "annual", status: "active", confirmed_at: "2025-03-02T00:00:00.000Z", expires_at: "2026-03-02T00:00:00.000Z" });
    await nextTurn();
    assert.deepEqual(await server.keyByHash(key.hash), await operator.keyById(key.id));
    await operator.updateKey(key.id, { status: "revoked", revoked_at: "2025-03-03T00:00:00.000Z" });
    await nextTurn();
    assert.equal((await server.keyByHash(key.hash))?.status, "revoked");

    // Unknown, then created elsewhere: the absence is not remembered past the change.
    const later = sha256(plaintextKey());
    assert.equal(await server.keyByHash(later), null);
    const created = keyRecord({ hash: later });
    await operator.insertKey(created);
    await nextTurn();
    assert.deepEqual(await server.keyByHash(later), created);

    // The connection's own change is seen too.
    await server.updateKey(created.id, { status: "revoked", revoked_at: "2025-03-04T00:00:00.000Z" });
    assert.equal((await server.keyByHash(later))?.status, "revoked");
    await nextTurn();
    assert.equal((await operator.keyByHash(later))?.status, "revoked");
  } finally {
    await server.close();
    await operator.close();
  }
}
