/**
 * What the service counts per request: answers by operation, method and status, their latency by
 * operation, and the metered calls' decisions by plan and outcome. Labels come only from bounded
 * sets (the declared routes, eight method names, status codes, the plans and problem codes), so a
 * client cannot grow the series by what it sends.
 */
import { LatencyHistogram } from "./histogram.ts";
import { type MetricsText, sortedEntries } from "./textFormat.ts";

/** The `route` label of a request no operation answered: a 404, a 405, a CORS preflight, a request the server could not parse. */
export const NO_ROUTE = "none";

/** The methods labelled by name; any other is `other`. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "other"] as const;

function methodIndex(method: string): number {
  const i = (METHODS as readonly string[]).indexOf(method);
  return i < 0 ? METHODS.length - 1 : i;
}

/** The answers of one operation: counts by status and method, and the latency histogram. */
class RouteSeries {
  /** By `status * METHODS.length + method index`. */
  readonly counts = new Map<number, number>();
  readonly latency = new LatencyHistogram();
}

/** Per-request counters of one app. */
export class RequestMetrics {
  private readonly routes = new Map<string, RouteSeries>();
  /** By plan, then outcome. */
  private readonly decisions = new Map<string, Map<string, number>>();

  /**
   * Counts one answer: `route` is the path template of the operation that answered (undefined when
   * none did), `ms` the time the app took to answer.
   */
  request(route: string | undefined, method: string, status: number, ms: number): void {
    const key = route ?? NO_ROUTE;
    let series = this.routes.get(key);
    if (series === undefined) this.routes.set(key, (series = new RouteSeries()));
    series.latency.observe(ms);
    const slot = status * METHODS.length + methodIndex(method);
    series.counts.set(slot, (series.counts.get(slot) ?? 0) + 1);
  }

  /** Counts one metered call's decision: `served`, or the problem code it was answered with. */
  decision(plan: string, outcome: string): void {
    let byOutcome = this.decisions.get(plan);
    if (byOutcome === undefined) this.decisions.set(plan, (byOutcome = new Map()));
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  }

  /** Writes the request and decision families. */
  write(out: MetricsText): void {
    const routes = sortedEntries(this.routes);
    out.family("hanja_api_requests_total", "counter", "Answers by operation (its path template; none: no operation answered), method and status.");
    for (const [route, series] of routes) {
      for (const [slot, n] of sortedEntries(series.counts)) {
        const method = METHODS[slot % METHODS.length] as string;
        out.sample("hanja_api_requests_total", { route: template(route), method, status: String(Math.floor(slot / METHODS.length)) }, n);
      }
    }
    out.family(
      "hanja_api_request_duration_seconds",
      "histogram",
      "Time the service took to answer, by operation, from the request reaching it to its answer being ready (the network not included).",
    );
    for (const [route, series] of routes) out.histogram("hanja_api_request_duration_seconds", { route: template(route) }, series.latency, 1e-3);
    out.family(
      "hanja_api_metered_calls_total",
      "counter",
      "Decisions on metered calls by plan (unknown: no key record was read) and outcome: served, or the problem code answered (quota_exceeded, invalid_key, key_expired, key_revoked, service_unavailable, …).",
    );
    for (const [plan, byOutcome] of sortedEntries(this.decisions)) {
      for (const [outcome, n] of sortedEntries(byOutcome)) out.sample("hanja_api_metered_calls_total", { plan, outcome }, n);
    }
  }
}

/** A route's path template as OpenAPI writes it: `/hanja/v1/hanja/{character}` for itty-router's `:character`. */
function template(route: string): string {
  return route.replace(/:(\w+)/g, "{$1}");
}
