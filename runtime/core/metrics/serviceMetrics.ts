/**
 * Everything `GET /metrics` reports for one app, in the Prometheus text format: requests and their
 * latency by operation, metered decisions, the quota store's operations, keys by plan and status,
 * the data's versions and the process's memory. Made only when the app has a metrics token; an
 * app without one counts nothing.
 */
import type { Manifest } from "../../format/dist.ts";
import type { QuotaStore } from "../quota/store.ts";
import { KeyCounts } from "./keyCounts.ts";
import { RequestMetrics } from "./requestMetrics.ts";
import { StoreMetrics, instrumentedStore } from "./storeMetrics.ts";
import { MetricsText } from "./textFormat.ts";

/** The process's memory as Node, Bun and Deno report it (`process.memoryUsage()`), in bytes. */
export interface ProcessMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** What the metrics of one app read. */
export interface MetricsSources {
  /** The app's quota store; the metrics hand back a measured one (`ServiceMetrics.store`). */
  store: QuotaStore;
  /** The `store` label: the kind of quota store. */
  storeKind: string;
  manifest: Manifest;
  now: () => Date;
  /** The process's memory, where the runtime can tell it; without it no memory is reported. */
  memoryUsage?: () => ProcessMemory;
}

/** The metrics of one app. */
export class ServiceMetrics {
  readonly requests = new RequestMetrics();
  /** The app's store, every operation measured: the app uses this one. */
  readonly store: QuotaStore;
  private readonly storeMetrics: StoreMetrics;
  private readonly keys: KeyCounts;
  private readonly startedAt: number;

  constructor(private readonly sources: MetricsSources) {
    this.storeMetrics = new StoreMetrics(sources.storeKind);
    this.store = instrumentedStore(sources.store, this.storeMetrics);
    this.keys = new KeyCounts(this.store, sources.now);
    this.startedAt = sources.now().getTime();
  }

  /** The exposition of every family, keys counted at most every five minutes (`KeyCounts`). */
  async render(): Promise<string> {
    const out = new MetricsText();
    this.requests.write(out);
    this.storeMetrics.write(out);
    await this.keys.write(out);
    const { manifest, memoryUsage } = this.sources;
    out.family(
      "hanja_api_data_info",
      "gauge",
      "The data served: Unihan version, hanja dictionary (first 12 hex digits of its SHA-256), data hash (first 12), build time.",
    );
    out.sample(
      "hanja_api_data_info",
      {
        unihan: manifest.unihan.version,
        dictionary: manifest.inputs[DICTIONARY_INPUT]?.slice(0, 12) ?? "none",
        data_hash: manifest.data_hash.slice(0, 12),
        built_at: manifest.built_at,
      },
      1,
    );
    out.family("hanja_api_start_time_seconds", "gauge", "When the service started (Unix time): counters restart from zero then.");
    out.sample("hanja_api_start_time_seconds", {}, this.startedAt / 1000);
    if (memoryUsage) writeMemory(out, memoryUsage());
    return out.toString();
  }
}

/** The manifest input that is the hanja dictionary the 훈음 come from. */
const DICTIONARY_INPUT = "libhangul/hanja.txt";

function writeMemory(out: MetricsText, memory: ProcessMemory): void {
  const gauges: [string, string, number][] = [
    ["process_resident_memory_bytes", "Resident memory of the process.", memory.rss],
    ["hanja_api_heap_used_bytes", "JavaScript heap in use.", memory.heapUsed],
    ["hanja_api_heap_total_bytes", "JavaScript heap reserved.", memory.heapTotal],
    ["hanja_api_external_memory_bytes", "Memory held outside the JavaScript heap by its objects (buffers).", memory.external],
  ];
  for (const [name, help, value] of gauges) out.family(name, "gauge", help).sample(name, {}, value);
}
