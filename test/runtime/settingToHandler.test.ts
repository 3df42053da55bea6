/**
 * A setting reaches its handler through one options object: an option declared by its rule in
 * `OPTION_RULES` alone (here `plantedNote`, planted at run time) is checked by `createApp` and read
 * by an operation from `services.options`, with no field of its own in the app's services, its
 * wiring or the services built to describe the interfaces. The server's side (the table of settings
 * feeding `createApp`) derives its options from the table already (test/runtime/settings.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppOptionError, OPTION_RULES, ruledOptions } from "../../runtime/core/appOptions.ts";
import { describingOnly } from "../../runtime/core/operations/interfaces.ts";
import { call, testApp } from "../helpers/app.ts";

// An operation that answers with the planted setting, mounted beside the root's others.
vi.mock("../../runtime/core/operations/metrics.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../runtime/core/operations/metrics.ts")>();
  const { defineOperation } = await import("../../runtime/core/operations/operation.ts");
  const withPlanted: typeof original.metricsInterface = (ctx) => [
    ...original.metricsInterface(ctx),
    defineOperation({
      method: "GET",
      path: "/planted-note",
      metering: "service",
      handler: (request) => {
        const note = (ctx.services.options as Record<string, unknown>).plantedNote;
        return ctx.services.sendBody(request, JSON.stringify({ note: note ?? null }), { caching: "no-store" });
      },
    }),
  ];
  return { ...original, metricsInterface: withPlanted };
});

const rules = OPTION_RULES as Record<string, unknown>;

describe("a setting declared by its rule alone", () => {
  beforeAll(() => {
    rules.plantedNote = { type: "integer", default: 7, min: 1, max: 9 };
  });
  afterAll(() => {
    delete rules.plantedNote;
  });

  it("reaches the handler that reads it from services.options, its default when unset", async () => {
    const set = await call(testApp({ plantedNote: 3 } as object), "/planted-note");
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ note: 3 });
    expect(await (await call(testApp(), "/planted-note")).json()).toEqual({ note: 7 });
  });

  it("is checked by its rule as createApp starts, the error naming it", () => {
    for (const bad of [0, 10, 2.5, "3"]) {
      let thrown: unknown;
      try {
        testApp({ plantedNote: bad } as object);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(bad)).toBeInstanceOf(AppOptionError);
      expect(thrown).toMatchObject({ option: "plantedNote" });
    }
  });

  it("is in the options the interfaces are described with, as every ruled option is", () => {
    expect(Object.keys(describingOnly().options).sort()).toEqual(Object.keys(OPTION_RULES).sort());
    expect(describingOnly().options).toEqual(ruledOptions({}));
    expect(describingOnly().options).toMatchObject({ plantedNote: 7, trustProxyHops: 0, hanjaBase: "/hanja/v1" });
  });
});
