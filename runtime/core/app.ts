/**
 * The portable core: `createApp(options)` → `{ fetch }`, Web APIs only. Per-runtime entry points
 * read `dist/`, pick a quota store and hand both in. This file wires the parts: options
 * (`appOptions.ts`), data, body sender, the interfaces (`operations/`), router, request handler (`handler.ts`) and the
 * personal-data sweep.
 */
import { type AppOptions, resolveOptions } from "./appOptions.ts";
import { type LoadedData, loadData } from "./data/load.ts";
import { createHandler } from "./handler.ts";
import { type Reply, type RequestLike, type ServeInfo, toResponse } from "./http/reply.ts";
import { cacheBudget } from "./util/cacheBudget.ts";
import { createSender } from "./http/sender.ts";
import { StoreOutages, watchedStore } from "./quota/outages.ts";
import { type SweepResult, eraseDue, firstKeptDay, firstKeptUsageDay } from "./quota/retention.ts";
import { ServiceMetrics } from "./metrics/serviceMetrics.ts";
import { mountInterfaces, routingOrder } from "./operations/interfaces.ts";
import { Router, assertReachable } from "./operations/router.ts";
import { createQuizIds } from "./quiz/quizId.ts";

export interface App {
  /** Answers a Web `Request` (what embedding servers and frameworks call). */
  fetch(request: Request, info?: ServeInfo): Promise<Response>;
  /**
   * Answers with a `Reply` (status, headers, serialized body) instead of a `Response`, for server
   * adapters that write it themselves; a Web `Request` is a `RequestLike`.
   */
  handle(request: RequestLike, info?: ServeInfo): Reply | Promise<Reply>;
  /**
   * The problem reply to a request the server could not parse, which never reaches `handle`: a
   * malformed request line or header section (`400`), or one too large (`431`). Logged like any
   * other request, with `-` for method and path. For server adapters that see such requests
   * (node:http's `clientError`).
   */
  refuse(status: 400 | 431, detail: string): Reply;
  /** The loaded data (counts, manifest). */
  readonly data: LoadedData;
  /** Erases the personal data due now and prunes old counters and usage history, as the hourly sweep does (under the store's lease), and says what it did. */
  erasePersonalData(): Promise<SweepResult>;
  /** Releases what the app holds (the quota store). */
  close(): Promise<void>;
}

/** Builds the service from loaded `dist/` files and options. */
export function createApp(options: AppOptions): App {
  const data = loadData(options.dist);
  const {
    hanjaBase,
    quizBase,
    mountPath,
    store: given,
    now,
    adminToken,
    metricsToken,
    storeKind,
    memoryUsage,
    retentionDays,
    quizSecrets,
    cacheMegabytes,
    options: ruled,
    page,
    ...config
  } = resolveOptions(options);
  // Metrics are kept only when someone may read them; they then measure every store operation.
  const metrics = metricsToken ? new ServiceMetrics({ store: given, storeKind, manifest: data.manifest, now, memoryUsage }) : undefined;
  // An outage is two lines in the log, not one per call answered 503 (`outages.ts`).
  const measured = metrics?.store ?? given;
  const outages = new StoreOutages(logLine, Date.now, measured.probe?.bind(measured));
  const store = watchedStore(measured, outages);
  const caches = cacheBudget(cacheMegabytes);
  const sender = createSender(config.compressors, caches);
  const bases = { hanjaBase, quizBase, mountPath, adminEnabled: Boolean(adminToken) };
  const { random, offsetMinutes, bankAccount } = config;
  const quizIds = createQuizIds({ secrets: quizSecrets, now, dataHash: data.manifest.data_hash });
  const services = {
    options: ruled,
    sendBody: sender.send,
    store,
    now,
    random,
    offsetMinutes,
    bankAccount,
    quizIds,
    metrics: metrics && metricsToken ? { metrics, token: metricsToken } : undefined,
    caches,
  };
  const mounted = mountInterfaces(bases, data, services, page);
  const router = new Router(routingOrder(mounted));
  assertReachable(router, mounted.hanja, hanjaBase);
  const { handle, refuse } = createHandler({
    router,
    sender,
    mountPath,
    secrets: [adminToken, metricsToken],
    log: config.log,
    metrics: metrics?.requests,
    onError: config.onError,
    outages,
  });

  // Under the store's lease: of N processes sharing a store, one sweeps at a time. A sweep under
  // way when the app closes stops at its next step and is waited for, before the store closes.
  const closing = new AbortController();
  const sweeping = new Set<Promise<SweepResult>>();
  const erasePersonalData = () => {
    const at = now();
    const sweep = eraseDue(store, at, retentionDays, logLine, {
      pruneBefore: firstKeptDay(at),
      pruneUsageBefore: firstKeptUsageDay(at),
      pruneClassesAt: at.toISOString(),
      signal: closing.signal,
    });
    sweeping.add(sweep);
    return sweep.finally(() => sweeping.delete(sweep));
  };
  const sweep = () =>
    void erasePersonalData().catch((error: unknown) =>
      console.error(
        JSON.stringify({
          level: "error",
          msg: `personal data erasure failed (retried within the hour): ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    );
  const sweeps = [setTimeout(sweep, 0), setInterval(sweep, RETENTION_SWEEP_MS)];
  // The sweep's timers never keep a process alive on their own (Node, Bun and Deno have unref).
  for (const timer of sweeps) (timer as { unref?: () => void }).unref?.();

  return {
    fetch: async (request, info) => toResponse(await handle(request, info)),
    handle,
    refuse,
    data,
    erasePersonalData,
    close: async () => {
      for (const timer of sweeps) clearTimeout(timer);
      closing.abort();
      await Promise.allSettled(sweeping);
      outages.close();
      await store.close();
    },
  };
}

/** Writes one of the app's own log lines (erasures, store outages) on stderr as JSON, as the servers write theirs. */
function logLine(line: Record<string, unknown>): void {
  console.error(JSON.stringify(line));
}

/** How often the app erases the personal data that has become due. */
const RETENTION_SWEEP_MS = 3_600_000;
