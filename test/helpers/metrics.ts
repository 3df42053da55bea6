/** Reading `GET /metrics` in tests: the exposition's samples, and `promtool check metrics` on it. */
import { spawnSync } from "node:child_process";

/** One sample line: metric name, labels, value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comment lines skipped; label values unescaped). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    // `s`: a label value may hold a carriage return, U+2028 or U+2029 unescaped (only \\, " and the line feed are escaped).
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/s.exec(line);
    if (match === null) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name as string] = (value as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    const raw = match[3] as string;
    samples.push({ name: match[1] as string, labels, value: raw === "+Inf" ? Number.POSITIVE_INFINITY : Number(raw) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** `promtool check metrics` on an exposition: its exit status and what it printed (problems, lint). */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const run = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  if (run.error) throw new Error(`promtool could not run (Debian's package prometheus has it): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}
