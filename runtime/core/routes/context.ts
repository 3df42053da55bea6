/** What every handler gets besides the request. */
export interface RequestContext {
  readonly requestId: string;
  /** The peer address the server saw (entry points pass it in); undefined when unknown. */
  readonly clientAddress: string | undefined;
  /** The client's IP as metered (after trusted proxy hops); set by interface B. */
  clientIp?: string;
  /** The plan a metered request ran under, for the access log. */
  plan?: string;
}
