/**
 * The interfaces, each mounted one way: built from one context, its operations' paths put under
 * its base. The app routes them (interface B first, see `createApp`); the reference documents them
 * (interface A first). Adding an interface is one entry here.
 */
import { ruledOptions } from "../appOptions.ts";
import type { LoadedData } from "../data/load.ts";
import { parameterComponents } from "../docs/parameters.ts";
import { cacheBudget } from "../util/cacheBudget.ts";
import { adminInterface } from "./admin.ts";
import { hanjaInterface } from "./hanja.ts";
import type { AppServices, Bases, Interface, Mounted } from "./operation.ts";
import { quizInterface } from "./quiz.ts";
import { serviceInterface } from "./service.ts";
import { metricsInterface } from "./metrics.ts";

/** Each interface's operations, mounted. */
export interface MountedInterfaces {
  /** Interface A under `hanjaBase`. */
  hanja: Mounted[];
  /** Interface B under `quizBase`. */
  quiz: Mounted[];
  /** The operator's operations under `quizBase`; none without an admin token. */
  admin: Mounted[];
  /** Liveness and the reference at the root. */
  service: Mounted[];
  /** `GET /metrics` at the root, hidden; none without a metrics token. */
  metrics: Mounted[];
  /** The page and its assets at the root, when the app is given them (`AppOptions.page`); not in the reference. */
  page: Mounted[];
}

/** Mounts every interface for these bases, data and services, and the page when there is one. */
export function mountInterfaces(bases: Bases, data: LoadedData, services: AppServices, page?: Interface): MountedInterfaces {
  // The reference describes every interface, its own operations included: read once all are mounted.
  const documented = () => referenceOrder(mounted);
  const reference = () => ({ operations: documented(), parameters });
  const mount = (build: Interface, base: string): Mounted[] =>
    build({ base, bases, data, services, reference }).map((operation) => ({ path: `${base}${operation.path}`, operation }));
  // Built whether or not it is mounted (building uses no services): its parameters are documented either way.
  const admin = mount(adminInterface, bases.quizBase);
  const mounted: MountedInterfaces = {
    hanja: mount(hanjaInterface, bases.hanjaBase),
    quiz: mount(quizInterface, bases.quizBase),
    admin: bases.adminEnabled ? admin : [],
    service: mount(serviceInterface, ""),
    metrics: mount(metricsInterface, ""),
    page: page ? mount(page, "") : [],
  };
  // The reference's parameters, from the operations' own declarations, derived as the app starts:
  // two declarations that would document one component differently stop it here, never a request.
  const parameters = parameterComponents(referenceOrder({ ...mounted, admin }));
  return mounted;
}

/** The documented operations for these bases and data, built only to describe them (the reference, its tests). */
export function describedOperations(data: LoadedData, bases: Omit<Bases, "mountPath"> & { mountPath?: string }): Mounted[] {
  return referenceOrder(mountInterfaces({ ...bases, mountPath: bases.mountPath ?? "" }, data, describingOnly()));
}

/**
 * The operations in the order routes are tried. Interface B comes first: its calls are routed every
 * time, while interface A's repeated targets are answered from their remembered bodies without
 * routing (see `handler.ts`).
 */
export function routingOrder(mounted: MountedInterfaces): Mounted[] {
  return [...mounted.quiz, ...mounted.hanja, ...mounted.admin, ...mounted.service, ...mounted.metrics, ...mounted.page];
}

/** The documented operations in the order of the reference. */
export function referenceOrder(mounted: MountedInterfaces): Mounted[] {
  return [...mounted.hanja, ...mounted.quiz, ...mounted.admin, ...mounted.service].filter(({ operation }) => operation.doc !== undefined);
}

/**
 * Services for building interfaces only to describe them (the reference): building never calls
 * them, and a handler that did would fail loudly rather than answer from nothing.
 */
export function describingOnly(): AppServices {
  const unavailable = (): never => {
    throw new Error("operations built to describe them cannot answer requests");
  };
  return {
    options: ruledOptions({}),
    sendBody: unavailable,
    store: new Proxy({} as AppServices["store"], { get: unavailable }),
    now: unavailable,
    random: new Proxy({} as AppServices["random"], { get: unavailable }),
    offsetMinutes: 0,
    bankAccount: "",
    quizIds: new Proxy({} as AppServices["quizIds"], { get: unavailable }),
    caches: cacheBudget(),
  };
}
