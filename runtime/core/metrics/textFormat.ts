/**
 * A writer of the Prometheus text exposition format, version 0.0.4 (what `GET /metrics` serves and
 * `promtool check metrics` reads): `# HELP` and `# TYPE` per family, one line per sample, label
 * values and help text escaped as the format says. Written here rather than taken from a client
 * library: the one for JavaScript (prom-client) needs node: modules, so the portable core could
 * not bundle it for a worker, and it costs a request more than this does (see RESULTS.md, "Metrics").
 */

/** The `Content-Type` of the text format. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The kinds of metric family the service writes. */
export type MetricType = "counter" | "gauge" | "histogram";

/** Label names and values of one sample, in the order they are written. */
export type Labels = Readonly<Record<string, string>>;

/** The observations of one histogram. */
export interface HistogramData {
  /** Upper bounds (inclusive) of the buckets, ascending, in the unit written; the `+Inf` bucket is implied. */
  readonly bounds: readonly number[];
  /** Observations per bucket, not cumulative: `counts[i]` fell in `(bounds[i-1], bounds[i]]`, the last in `+Inf`. */
  readonly counts: ArrayLike<number>;
  /** The sum of the observations, in the unit observed. */
  readonly sum: number;
}

/** Builds one exposition, family by family. */
export class MetricsText {
  private readonly lines: string[] = [];

  /** Starts a family: its help and type lines. Every sample written next belongs to it. */
  family(name: string, type: MetricType, help: string): this {
    this.lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
    return this;
  }

  /** One sample of a counter or gauge. */
  sample(name: string, labels: Labels, value: number): this {
    this.lines.push(`${name}${labelText(labels)} ${formatValue(value)}`);
    return this;
  }

  /**
   * The samples of one histogram series: cumulative `_bucket` lines ending with `le="+Inf"`, then
   * `_sum` and `_count`. `sumScale` converts the unit observed into the unit written (1e-3: ms to s).
   */
  histogram(name: string, labels: Labels, data: HistogramData, sumScale = 1): this {
    let cumulative = 0;
    data.bounds.forEach((bound, i) => {
      cumulative += data.counts[i] ?? 0;
      this.sample(`${name}_bucket`, { ...labels, le: formatValue(bound) }, cumulative);
    });
    cumulative += data.counts[data.bounds.length] ?? 0;
    this.sample(`${name}_bucket`, { ...labels, le: "+Inf" }, cumulative);
    this.sample(`${name}_sum`, labels, data.sum * sumScale);
    return this.sample(`${name}_count`, labels, cumulative);
  }

  /** The exposition: every line, each ended by a line feed. */
  toString(): string {
    return this.lines.length === 0 ? "" : `${this.lines.join("\n")}\n`;
  }
}

/** A label set as the format writes it: `{name="value",…}`, nothing for an empty set. */
function labelText(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length === 0) return "";
  return `{${names.map((name) => `${name}="${escapeLabelValue(labels[name] ?? "")}"`).join(",")}}`;
}

/** A label value escaped: backslash, double quote and line feed (the format's three escapes). */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

/** Help text escaped: backslash and line feed. */
function escapeHelp(help: string): string {
  return help.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\"));
}

/** A sample value as the format writes it: `+Inf`, `-Inf`, `NaN`, else the number (exponents allowed). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** A map's entries in key order, so that an exposition lists its series the same way every time. */
export function sortedEntries<K extends string | number, V>(map: ReadonlyMap<K, V>): [K, V][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
