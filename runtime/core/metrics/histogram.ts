/**
 * A latency histogram kept in milliseconds (what `performance.now()` gives) and written in seconds
 * (Prometheus's unit): observing is a short scan of the bounds and two additions, cheap enough for
 * every request.
 */
import type { HistogramData } from "./textFormat.ts";

/**
 * Bucket bounds of the service's latencies, in seconds: from 50 µs (a remembered answer of
 * interface A takes a few) to 10 s (past every store's time bound), about three a decade.
 */
export const LATENCY_BOUNDS_SECONDS: readonly number[] = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Observations in milliseconds against bounds in seconds. */
export class LatencyHistogram implements HistogramData {
  readonly bounds = LATENCY_BOUNDS_SECONDS;
  readonly counts = new Float64Array(LATENCY_BOUNDS_SECONDS.length + 1);
  /** In milliseconds. */
  sum = 0;

  /** Counts one observation of `ms` milliseconds. */
  observe(ms: number): void {
    // Most observations fall in the first buckets, so a scan from the bottom ends soon.
    let i = 0;
    while (i < BOUNDS_MS.length && ms > (BOUNDS_MS[i] as number)) i++;
    (this.counts[i] as number)++;
    this.sum += ms;
  }
}

const BOUNDS_MS = Float64Array.from(LATENCY_BOUNDS_SECONDS, (s) => s * 1000);
