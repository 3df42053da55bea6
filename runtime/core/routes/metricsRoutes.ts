/**
 * `GET /metrics`: the service's metrics in the Prometheus text format, for an operator's scraper
 * only. Registered only when a metrics token is configured, and even then answered only to
 * `Authorization: Bearer <token>` (compared in constant time); any other request gets the 404 of
 * an unknown path, and the route is hidden from 405 and preflight answers, so nothing tells a
 * client that it exists.
 */
import { bearerToken, noSuchRoute } from "../http/errors.ts";
import type { Send } from "../http/sender.ts";
import type { ServiceMetrics } from "../metrics/serviceMetrics.ts";
import { METRICS_CONTENT_TYPE } from "../metrics/textFormat.ts";
import { constantTimeEqual } from "../quota/apiKeys.ts";
import type { Route } from "./context.ts";

/** The path of the metrics, at the root beside `/healthz`. */
export const METRICS_PATH = "/metrics";

/** What the metrics route needs. */
export interface MetricsRouteConfig {
  metrics: ServiceMetrics;
  token: string;
  /** The mount path, named by the 404's `type` as every 404 of the app names it. */
  mountPath: string;
  sendBody: Send;
}

/** The metrics route (one, hidden: see the module's comment). */
export function metricsRoutes(config: MetricsRouteConfig): Route[] {
  return [
    {
      method: "GET",
      path: METRICS_PATH,
      hidden: true,
      handler: async (request) => {
        if (!constantTimeEqual(bearerToken(request.headers), config.token)) throw noSuchRoute(config.mountPath);
        return config.sendBody(request, await config.metrics.render(), { caching: "no-store", contentType: METRICS_CONTENT_TYPE });
      },
    },
  ];
}
