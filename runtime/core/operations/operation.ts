/**
 * One declaration per operation: method, path under its interface's base, parameters, responses,
 * reference text, metering and handler. Routing (`router.ts`), the OpenAPI paths and `/docs`
 * (`docs/openapi.ts`) and the contract tests all read these declarations; nothing about an
 * operation is written anywhere else.
 */
import type { RuledValues } from "../optionRules.ts";
import type { LoadedData } from "../data/load.ts";
import type { ParamSpec, ParsedParams, PathSpec } from "../http/params.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { CacheBudget } from "../util/cacheBudget.ts";
import type { Send } from "../http/sender.ts";
import type { QuizIds } from "../quiz/quizId.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { ServiceMetrics } from "../metrics/serviceMetrics.ts";
import type { RequestContext } from "../routes/context.ts";
import type { Random } from "../util/random.ts";
import type { Parameter, RequestBody, RequestExample, Response, Reference, SecurityRequirement } from "../docs/types.ts";

/** The names of a path template's `{parameters}`: `"/a/{x}/b/{y}"` → `"x" | "y"`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/** An operation's parameters: query specs and, by the names of its path's `{parameters}`, path specs. */
export type ParameterSpecs = Readonly<Record<string, ParamSpec | PathSpec>>;

/**
 * How a call is accounted for: `public` (interface A, the page: no key, no quota), `metered` (one
 * call of the caller's daily quota), `admin` (the operator's bearer token), `service` (liveness,
 * this reference).
 */
export type Metering = "public" | "metered" | "admin" | "service";

/**
 * A handler: the request (its URL normalized), the per-request context, and the values of the
 * parameters its declaration names, parsed by the router from the query and the path before the
 * handler runs (a bad one is a `400` naming it). It gets no other parameter: one it does not
 * declare, it cannot read.
 */
export type OperationHandler<S extends ParameterSpecs = ParameterSpecs> = (
  request: RequestLike,
  ctx: RequestContext,
  params: ParsedParams<S>,
) => Reply | Promise<Reply>;

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

/** Path specs for exactly the names of a path template's `{parameters}`; other names hold query specs. */
type PathSpecsOf<P extends string> = { readonly [Name in PathParamNames<P>]: PathSpec };

/** One operation, declared once. */
export interface Operation<P extends string = string, S extends ParameterSpecs = ParameterSpecs> {
  method: "GET" | "POST";
  /** The path under the interface's base, OpenAPI style: `/hanja/{character}`. A GET also answers HEAD. */
  path: P;
  /**
   * Its parameters, in the order they are documented; the router parses the path's first, then the
   * query's in this order (the first bad one is named), and hands the handler their values.
   */
  parameters?: S & PathSpecsOf<P>;
  /**
   * Checks the caller's credentials before anything else is read (the admin operations' bearer
   * token): a caller without them learns nothing of what the parameters would say.
   */
  authorize?: (request: RequestLike) => void;
  metering: Metering;
  doc?: OperationDoc;
  /**
   * An operation whose existence is not told to a client without its credentials (`GET /metrics`):
   * left out of 405 and preflight answers, so that for such a client its path is an unknown one.
   */
  hidden?: true;
  handler: OperationHandler<S>;
}

/**
 * Declares an operation; its handler's `params` are typed from its `parameters`, and the path's
 * `{names}` must each have a path spec there (the router checks it again when it compiles the path).
 */
export function defineOperation<P extends string, S extends ParameterSpecs = Record<never, never>>(operation: Operation<P, S>): Operation {
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
  /**
   * Every `createApp` option with a rule (`OPTION_RULES`), checked, its default filled in: a
   * handler reads a setting here (`options.trustProxyHops`), so a new one needs no field of its own
   * on the way (docs/contributing.md).
   */
  options: Readonly<RuledValues>;
  sendBody: Send;
  store: QuotaStore;
  now: () => Date;
  random: Random;
  /** Minutes east of UTC of the metering day (Asia/Seoul: 540): `options.quotaTzOffset` read once. */
  offsetMinutes: number;
  /** Bank account text shown in the payment instructions: `options.bankAccount`, or a placeholder asking to configure it. */
  bankAccount: string;
  /** Signs and checks the ids of quizzes drawn with `reveal=0` (`QUIZ_SECRET`). */
  quizIds: QuizIds;
  /** The metrics and the token that reads them; `/metrics` is mounted only with them. */
  metrics?: { metrics: ServiceMetrics; token: string };
  /** The bytes each of the app's caches may hold (`cacheMegabytes` split, `util/cacheBudget.ts`). */
  caches: CacheBudget;
}

/** What every interface is built from. */
export interface InterfaceContext {
  /** The base this interface is mounted under (`""` for the service's own operations). */
  base: string;
  bases: Bases;
  data: LoadedData;
  services: AppServices;
  /**
   * What `/openapi.json` describes: the documented operations of the whole app, mounted, in the
   * reference's order, and the parameter components derived from every documented operation's
   * declaration as the app started; call it only when answering.
   */
  reference: () => ReferenceSource;
}

/** The operations the reference describes and its parameter components (`docs/parameters.ts`). */
export interface ReferenceSource {
  operations: readonly Mounted[];
  parameters: Readonly<Record<string, Parameter>>;
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
