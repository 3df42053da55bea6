/** The writer of the Prometheus text format and the latency histogram behind `GET /metrics`. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LATENCY_BOUNDS_SECONDS, LatencyHistogram } from "../../runtime/core/metrics/histogram.ts";
import { MetricsText, escapeLabelValue, formatValue } from "../../runtime/core/metrics/textFormat.ts";
import { parseSamples } from "../helpers/metrics.ts";

describe("the text format writer", () => {
  it("writes HELP and TYPE per family, then its samples, the help text escaped; a line feed ends the text", () => {
    const text = new MetricsText()
      .family("x_total", "counter", "Counts \\ things\nover lines.")
      .sample("x_total", { route: "/a/{b}", status: "200" }, 3)
      .sample("x_total", {}, 0)
      .toString();
    expect(text).toBe(
      ["# HELP x_total Counts \\\\ things\\nover lines.", "# TYPE x_total counter", 'x_total{route="/a/{b}",status="200"} 3', "x_total 0", ""].join("\n"),
    );
    expect(new MetricsText().toString()).toBe("");
  });

  it("escapes the three characters of a label value, and any value reads back as it was", () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    // Line terminators other than the line feed are not escaped by the format, and read back as they were.
    for (const value of ["\r", "\r\n", "\u2028", "\u2029"]) {
      const [sample] = parseSamples(new MetricsText().sample("v", { label: value }, 1).toString());
      expect(sample?.labels.label).toBe(value);
    }
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (value) => {
        const [sample] = parseSamples(new MetricsText().sample("v", { label: value }, 1).toString());
        expect(sample?.labels.label).toBe(value);
      }),
    );
  });

  it("writes values as the format reads them: +Inf, -Inf, NaN, exponents", () => {
    expect([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 1e-7, 12, 0.5].map(formatValue)).toEqual([
      "+Inf",
      "-Inf",
      "NaN",
      "1e-7",
      "12",
      "0.5",
    ]);
  });

  it("a histogram: cumulative buckets ending with +Inf, the sum scaled to seconds, the count", () => {
    const h = new LatencyHistogram();
    for (const ms of [0.01, 0.05, 0.3, 2, 20_000]) h.observe(ms);
    const samples = parseSamples(new MetricsText().histogram("t_seconds", { route: "r" }, h, 1e-3).toString());
    const buckets = samples.filter((s) => s.name === "t_seconds_bucket");
    expect(buckets.map((s) => s.labels.le)).toEqual([...LATENCY_BOUNDS_SECONDS.map(String), "+Inf"]);
    const at = (le: string) => buckets.find((s) => s.labels.le === le)?.value;
    // 0.05 ms is 50 µs, on the first bound (bounds are inclusive).
    expect([at("0.00005"), at("0.0005"), at("0.0025"), at("10"), at("+Inf")]).toEqual([2, 3, 4, 4, 5]);
    expect(samples.find((s) => s.name === "t_seconds_sum")?.value).toBeCloseTo(20.00236, 9);
    expect(samples.find((s) => s.name === "t_seconds_count")?.value).toBe(5);
  });
});
