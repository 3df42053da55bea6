/**
 * The contract of the work that grows with the number of keys (`QuotaStore.keyPage`,
 * `erasablePage`, the leases, `pruneCounters`, and the sweep over them in `retention.ts`), as plain
 * async checks like `contractCases.ts`: run by `contract.test.ts` and `redisContract.test.ts`, so
 * every store is held to the same behaviour.
 */
import assert from "node:assert/strict";
import { eachKey } from "../../runtime/core/quota/keyPages.ts";
import { SWEEP_LEASE, eraseDue, erasuresDue } from "../../runtime/core/quota/retention.ts";
import type { KeyPage, KeyRecord, QuotaStore } from "../../runtime/core/quota/store.ts";
import { type ContractCase, keyRecord } from "./contractCases.ts";

const NOW = new Date("2025-06-01T00:00:00.000Z");
const RETENTION_DAYS = 30;
/** An instant `days` before NOW. */
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

/** Ids in creation order, newest first (ties by id, compared by code unit, not by locale): the order every store lists. */
const newestFirst = (keys: KeyRecord[]) =>
  keys
    .map((k) => `${k.created_at} ${k.id}`)
    .sort()
    .reverse()
    .map((position) => position.slice(position.indexOf(" ") + 1));

async function walk(store: QuotaStore, query: Parameters<typeof eachKey>[1]): Promise<string[]> {
  const ids: string[] = [];
  for await (const key of eachKey(store, query)) ids.push(key.id);
  return ids;
}

/** `store` with what its pages answered counted: how many keys the sweep read, and from which index. */
function counting(store: QuotaStore): { store: QuotaStore; read: { keyPage: number; erasablePage: number } } {
  const read = { keyPage: 0, erasablePage: 0 };
  const counted = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== "keyPage" && property !== "erasablePage") return value.bind(target);
      return async (...args: unknown[]) => {
        const page = (await value.apply(target, args)) as KeyPage;
        read[property] += page.keys.length;
        return page;
      };
    },
  });
  return { store: counted, read };
}

/** Inserts `count` keys made by `make(i)`. */
async function insertMany(store: QuotaStore, count: number, make: (i: number) => KeyRecord): Promise<KeyRecord[]> {
  const keys = Array.from({ length: count }, (_, i) => make(i));
  for (const key of keys) await store.insertKey(key);
  return keys;
}

export const scaleCases: ContractCase[] = [
  {
    name: "keys are walked in pages, each once, in creation order both ways (ties by id), filtered by stored status",
    async run(store) {
      const tie = "2025-02-01T00:00:00.000Z";
      const keys = [
        ...(await insertMany(store, 5, (i) => keyRecord({ created_at: `2025-01-0${i + 1}T00:00:00.000Z` }))),
        ...(await insertMany(store, 4, () => keyRecord({ created_at: tie, status: "active", plan: "annual" }))),
        ...(await insertMany(store, 2, (i) => keyRecord({ created_at: `2025-03-0${i + 1}T00:00:00.000Z`, status: "revoked", revoked_at: NOW.toISOString() }))),
      ];
      for (const limit of [1, 2, 3, 11, 500]) {
        assert.deepEqual(await walk(store, { limit }), newestFirst(keys), `newest first, pages of ${limit}`);
        assert.deepEqual(await walk(store, { limit, oldestFirst: true }), newestFirst(keys).reverse(), `oldest first, pages of ${limit}`);
        for (const status of ["pending_deposit", "active", "revoked"] as const)
          assert.deepEqual(await walk(store, { limit, status }), newestFirst(keys.filter((k) => k.status === status)), `${status}, pages of ${limit}`);
      }
      const first = await store.keyPage({ limit: 4 });
      assert.equal(first.keys.length, 4);
      assert.notEqual(first.next, null);
      // A key inserted during a walk does not disturb it: the keys present throughout are each seen once.
      const late = keyRecord({ created_at: "2025-01-03T12:00:00.000Z" });
      await store.insertKey(late);
      const rest: string[] = [];
      for (let page = await store.keyPage({ limit: 3, after: first.next }); ; page = await store.keyPage({ limit: 3, after: page.next })) {
        rest.push(...page.keys.map((k) => k.id));
        if (page.next === null) break;
      }
      assert.deepEqual([...first.keys.map((k) => k.id), ...rest], newestFirst([...keys, late]));
      assert.deepEqual(await store.keyPage({ limit: 5, after: "0000 key_" }), { keys: [], next: null }, "nothing is older than the oldest");
    },
  },
  {
    name: "erasablePage answers only keys whose retention clock started by `until`, soonest first, in pages, as keys change",
    async run(store) {
      const until = daysAgo(RETENTION_DAYS);
      const [oldPending, newPending] = [keyRecord({ created_at: daysAgo(40) }), keyRecord({ created_at: daysAgo(10) })];
      const oldRevoked = keyRecord({ created_at: daysAgo(400), status: "revoked", revoked_at: daysAgo(35) });
      const newRevoked = keyRecord({ created_at: daysAgo(400), status: "revoked", revoked_at: daysAgo(5) });
      const active = keyRecord({ created_at: daysAgo(300), status: "active", plan: "annual" });
      const erased = keyRecord({ created_at: daysAgo(300), erased_at: daysAgo(200), applicant: { name: "", email: "", phone: null, depositor: null } });
      const toConfirm = keyRecord({ created_at: daysAgo(50) });
      const toRevoke = keyRecord({ created_at: daysAgo(300), status: "active", plan: "annual" });
      for (const key of [oldPending, newPending, oldRevoked, newRevoked, active, erased, toConfirm, toRevoke]) await store.insertKey(key);
      const ids = async (limit: number) => {
        const seen: string[] = [];
        let after: string | null = null;
        for (;;) {
          const page: KeyPage = await store.erasablePage(until, after, limit);
          seen.push(...page.keys.map((k) => k.id));
          if (page.next === null) return seen;
          after = page.next;
        }
      };
      assert.deepEqual(await ids(1), [toConfirm.id, oldPending.id, oldRevoked.id]);
      await store.updateKey(toConfirm.id, { status: "active", plan: "annual", confirmed_at: NOW.toISOString() });
      await store.updateKey(toRevoke.id, { status: "revoked", revoked_at: daysAgo(31) });
      assert.deepEqual(await ids(2), [oldPending.id, oldRevoked.id, toRevoke.id]);
      assert.equal(await store.eraseApplicant(oldPending.id, "pending_deposit", NOW.toISOString()), true);
      assert.deepEqual(await ids(500), [oldRevoked.id, toRevoke.id]);
      // Later `until`: the newer ones come in, in the order their clocks started.
      assert.deepEqual(
        (await store.erasablePage(NOW.toISOString(), null, 10)).keys.map((k) => k.id),
        [oldRevoked.id, toRevoke.id, newPending.id, newRevoked.id],
      );
    },
  },
  {
    name: "the sweep reads only the keys due, erases them in batches with the event loop free between, and leaves the rest",
    async run(plain) {
      const due = await insertMany(plain, 450, (i) => keyRecord({ created_at: daysAgo(31 + (i % 7)) }));
      const kept = [
        ...(await insertMany(plain, 150, () => keyRecord({ created_at: daysAgo(3) }))),
        ...(await insertMany(plain, 150, () => keyRecord({ created_at: daysAgo(100), status: "active", plan: "annual" }))),
      ];
      const { store, read } = counting(plain);
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 0);
      const lines: Record<string, unknown>[] = [];
      try {
        assert.deepEqual(await eraseDue(store, NOW, RETENTION_DAYS, (line) => lines.push(line)), {
          leased: true,
          erased: 450,
          pruned: 0,
          prunedUsage: 0,
          prunedClasses: 0,
        });
      } finally {
        clearInterval(ticker);
      }
      assert.equal(read.keyPage, 0, "the sweep walked the keys");
      assert.equal(read.erasablePage, 450, "the sweep read keys that were not due");
      assert.ok(ticks >= 1, "the event loop never ran during a sweep of 450 keys in batches of 200");
      assert.deepEqual(lines.map((line) => line.key_id).sort(), due.map((k) => k.id).sort());
      for (const key of due) assert.equal((await plain.keyById(key.id))?.applicant.email, "");
      for (const key of kept) assert.equal((await plain.keyById(key.id))?.applicant.email, key.applicant.email);
      const upcoming: string[] = [];
      for await (const erasure of erasuresDue(plain, NOW, RETENTION_DAYS, 30)) upcoming.push(erasure.id);
      assert.deepEqual(
        upcoming.sort(),
        kept
          .slice(0, 150)
          .map((k) => k.id)
          .sort(),
      );
    },
  },
  {
    name: "a lease has one holder at a time, is renewed by it, released by it only, and expires",
    async run(store) {
      assert.equal(await store.acquireLease("job", "a", 5_000), true);
      assert.equal(await store.acquireLease("job", "b", 5_000), false);
      assert.equal(await store.acquireLease("other job", "b", 5_000), true);
      assert.equal(await store.acquireLease("job", "a", 5_000), true, "renewed by its holder");
      await store.releaseLease("job", "b");
      assert.equal(await store.acquireLease("job", "b", 5_000), false, "released by another holder");
      await store.releaseLease("job", "a");
      assert.equal(await store.acquireLease("job", "b", 60), true, "free once released");
      assert.equal(await store.acquireLease("job", "a", 5_000), false);
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.equal(await store.acquireLease("job", "a", 5_000), true, "free once expired");
      // Several at once: exactly one wins.
      const tries = await Promise.all(["c", "d", "e", "f"].map((holder) => store.acquireLease("race", holder, 5_000)));
      assert.equal(tries.filter(Boolean).length, 1);
    },
  },
  {
    name: "a sweep finding the lease held does nothing: its holder sweeps",
    async run(store) {
      const key = keyRecord({ created_at: daysAgo(60) });
      await store.insertKey(key);
      assert.equal(await store.acquireLease(SWEEP_LEASE, "another process", 60_000), true);
      assert.deepEqual(await eraseDue(store, NOW, RETENTION_DAYS, () => {}), { leased: false, erased: 0, pruned: 0, prunedUsage: 0, prunedClasses: 0 });
      assert.equal((await store.keyById(key.id))?.applicant.email, key.applicant.email);
      await store.releaseLease(SWEEP_LEASE, "another process");
      assert.deepEqual(await eraseDue(store, NOW, RETENTION_DAYS, () => {}), { leased: true, erased: 1, pruned: 0, prunedUsage: 0, prunedClasses: 0 });
      assert.equal(await store.acquireLease(SWEEP_LEASE, "another process", 60_000), true, "the sweep released its lease");
    },
  },
  {
    name: "a metered call prunes nothing; old counters go in batches of pruneCounters (or expire by themselves)",
    async run(store) {
      for (const day of ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-10"]) await store.consume("ip:a", day, 5);
      for (const day of ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-10"]) assert.equal(await store.used("ip:a", day), 1, `${day} kept by consume`);
      const first = await store.pruneCounters("2025-01-03", 1);
      // Redis counters expire by themselves: such a store prunes nothing.
      if (first === 0) return;
      assert.equal(first, 1);
      assert.equal(await store.pruneCounters("2025-01-03", 1), 1);
      assert.equal(await store.pruneCounters("2025-01-03", 1), 0);
      assert.deepEqual(await Promise.all(["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-10"].map((day) => store.used("ip:a", day))), [0, 0, 1, 1]);
    },
  },
];
