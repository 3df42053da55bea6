/**
 * One declaration per operation: method, path under its interface's base, parameters, responses,
 * reference text, metering and handler. Routing (`router.ts`), the OpenAPI paths and `/docs`
 * (`docs/openapi.ts`) and the contract tests all read these declarations; nothing about an
 * operation is written anywhere else.
 */
import type { LoadedData } from "../data/load.ts";
import type { ParamSpec } from "../http/params.ts";
import type { PathSpec } from "../http/params.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { Send } from "../http/sender.ts";
import type { QuizIds } from "../quiz/quizId.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { ServiceMetrics } from "../metrics/serviceMetrics.ts";
import type { RequestContext } from "../routes/context.ts";
import type { Random } from "../util/random.ts";
import type { RequestBody, RequestExample, Response, Reference, SecurityRequirement } from "../docs/types.ts";

/** The names of a path template's `{parameters}`: `"/a/{x}/b/{y}"` → `"x" | "y"`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/** The path parameters a handler receives, raw (percent-encoded) as the path carries them; parse them with their specs. */
export type PathParams<P extends string> = { readonly [Name in PathParamNames<P>]: string };

/**
 * How a call is accounted for: `public` (interface A, the page: no key, no quota), `metered` (one
 * call of the caller's daily quota), `admin` (the operator's bearer token), `service` (liveness,
 * this reference).
 */
export type Metering = "public" | "metered" | "admin" | "service";

/** A handler: the request (its URL normalized), the per-request context, and the path's parameters by name. */
export type OperationHandler<P extends string = string> = (request: RequestLike, ctx: RequestContext, params: PathParams<P>) => Reply | Promise<Reply>;

/** What the reference says of an operation; absent for what the reference leaves out (the page and its assets). */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: SecurityRequirement[];
  requestBody?: RequestBody;
  /** Status → response (its schema ref, headers and the problem codes it may carry). */
  responses: Record<string, Response | Reference>;
  /** The `x-request-examples` the reference turns into curl lines. */
  examples: RequestExample[];
  /** The OpenAPI path item's description (which other methods the path answers). */
  pathNote: string;
}

/** One operation, declared once. */
export interface Operation<P extends string = string> {
  method: "GET" | "POST";
  /** The path under the interface's base, OpenAPI style: `/hanja/{character}`. A GET also answers HEAD. */
  path: P;
  /** Its parameters, in the order they are parsed and documented (query specs and path specs by name). */
  parameters?: Readonly<Record<string, ParamSpec | PathSpec>>;
  metering: Metering;
  doc?: OperationDoc;
  /**
   * An operation whose existence is not told to a client without its credentials (`GET /metrics`):
   * left out of 405 and preflight answers, so that for such a client its path is an unknown one.
   */
  hidden?: true;
  handler: OperationHandler<P>;
}

/** Declares an operation; its handler's `params` are typed from the path template. */
export function defineOperation<P extends string>(operation: Operation<P>): Operation {
  return operation as unknown as Operation;
}

/** Where the interfaces are served: what links and the reference need. */
export interface Bases {
  hanjaBase: string;
  quizBase: string;
  /** Where the host serves the service (`""`: its root); see `AppOptions.mountPath`. */
  mountPath: string;
  adminEnabled: boolean;
}

/** The app's parts an interface's handlers use, besides the data. */
export interface AppServices {
  sendBody: Send;
  store: QuotaStore;
  now: () => Date;
  random: Random;
  /** Minutes east of UTC of the metering day (Asia/Seoul: 540). */
  offsetMinutes: number;
  /** Trusted reverse-proxy hops in front of the server (0: use the socket's peer). */
  trustProxyHops: number;
  /** Bank account text shown in the payment instructions. */
  bankAccount: string;
  /** The operator's token; the admin interface is mounted only with one. */
  adminToken: string | undefined;
  /** Signs and checks the ids of quizzes drawn with `reveal=0` (`QUIZ_SECRET`). */
  quizIds: QuizIds;
  /** The metrics and the token that reads them; `/metrics` is mounted only with them. */
  metrics?: { metrics: ServiceMetrics; token: string };
}

/** What every interface is built from. */
export interface InterfaceContext {
  /** The base this interface is mounted under (`""` for the service's own operations). */
  base: string;
  bases: Bases;
  data: LoadedData;
  services: AppServices;
  /** The documented operations of the whole app, mounted, in the reference's order (what `/openapi.json` describes); call it only when answering. */
  documented: () => readonly Mounted[];
}

/**
 * An interface: a sub-app whose operations' paths are relative to its base. Building one must not
 * use `services` (the reference builds every interface without them); handlers do.
 */
export type Interface = (ctx: InterfaceContext) => Operation[];

/** An operation as mounted: its full path (base included). */
export interface Mounted {
  path: string;
  operation: Operation;
}
