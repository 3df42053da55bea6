/**
 * `/openapi.json` and `/docs` as served for a few configurations (the defaults, admin routes on,
 * custom bases, a mount path), printed with every object's keys sorted, so that two revisions'
 * outputs differ only where the documents do and not where their key order does:
 * `npx tsx scripts/openapi-snapshot.ts > a.json`, on the other revision `> b.json`, then `diff a.json b.json`.
 * `/docs` is printed as its SHA-256 (the page is one string; equal hashes, equal pages).
 */
import { join } from "node:path";
import { createApp } from "../runtime/core/app.ts";
import type { AppOptions } from "../runtime/core/appOptions.ts";
import { sha256Hex } from "../runtime/core/util/sha256Hex.ts";
import { loadDistFiles } from "../runtime/entry/loadDist.ts";

const CONFIGURATIONS: Record<string, Partial<AppOptions>> = {
  defaults: {},
  admin: { adminToken: "snapshot-admin-token" },
  bases: { hanjaBase: "/api/chars", quizBase: "/api/quiz/v2", adminToken: "snapshot-admin-token" },
  // The host strips its mount path before the app sees a request.
  mounted: { mountPath: "/lexicon" },
};

/** A value with every object's keys in sorted order (arrays keep theirs: their order is content). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

const dist = loadDistFiles(join(import.meta.dirname, "../dist"));
const out: Record<string, unknown> = {};
for (const [label, options] of Object.entries(CONFIGURATIONS)) {
  const app = createApp({ dist, onError: () => {}, ...options });
  const get = (path: string) => app.fetch(new Request(`http://localhost${path}`), { clientAddress: "127.0.0.1" });
  const openapi = await get("/openapi.json");
  const docs = await get("/docs");
  out[label] = { status: [openapi.status, docs.status], openapi: sorted(await openapi.json()), docs: sha256Hex(await docs.text()) };
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
