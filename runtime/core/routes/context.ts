import type { RawQuery } from "../http/params.ts";

/** What every handler gets besides the request. */
export interface RequestContext {
  readonly requestId: string;
  /** The peer address the server saw (entry points pass it in); undefined when unknown. */
  readonly clientAddress: string | undefined;
  /** The client's IP as metered (after trusted proxy hops); set by interface B. */
  clientIp?: string;
  /** The plan a metered request ran under, for the access log. */
  plan?: string;
  /** The full path template of the operation that answered (`/hanja/v1/hanja/{character}`), for the metrics. */
  route?: string;
  /**
   * How far metering went, for the metrics: `pending` once a metered call is decided on (its
   * parameters valid), `served` once it was counted within the limit.
   */
  metered?: "pending" | "served";
  /** The problem code the request was answered with, when it was answered with one. */
  problem?: string;
  /** The parameter or field that problem names, for the access log. */
  param?: string;
  /**
   * The query as collected when the operation declares query parameters (the router's parse sets
   * it), so that the metering finds `api_key`, the key's place the security scheme names, without
   * splitting the query again. Handlers read their declared parameters, not this.
   */
  rawQuery?: RawQuery;
}
