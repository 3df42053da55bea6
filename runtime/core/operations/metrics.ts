/**
 * `GET /metrics`: the service's metrics in the Prometheus text format, for an operator's scraper
 * only. Mounted only when a metrics token is configured, and even then answered only to
 * `Authorization: Bearer <token>` (compared in constant time); any other request gets the 404 of
 * an unknown path, and the operation is hidden from 405 and preflight answers and left out of the
 * reference, so nothing tells a client that it exists.
 */
import { bearerToken, noSuchRoute } from "../http/errors.ts";
import { METRICS_CONTENT_TYPE } from "../metrics/textFormat.ts";
import { constantTimeEqual } from "../quota/apiKeys.ts";
import { type Interface, defineOperation } from "./operation.ts";

/** The metrics operation, at the root beside `/healthz`; none without `services.metrics`. */
export const metricsInterface: Interface = ({ services, bases }) => {
  const { metrics } = services;
  if (metrics === undefined) return [];
  return [
    defineOperation({
      method: "GET",
      path: "/metrics",
      metering: "service",
      hidden: true,
      handler: async (request) => {
        if (!constantTimeEqual(bearerToken(request.headers), metrics.token)) throw noSuchRoute(bases.mountPath);
        return services.sendBody(request, await metrics.metrics.render(), { caching: "no-store", contentType: METRICS_CONTENT_TYPE });
      },
    }),
  ];
};
