/**
 * The plans of interface B, their daily limits, the annual price and the limits of an
 * application, written once (docs/rules.md "Interface B"). Metering, `POST /subscribe`, the reference (/docs,
 * /openapi.json) and the `keys` CLI read them from here.
 */
import { count } from "../util/count.ts";

/** Daily limits per plan (an expired or revoked key gets 0). */
export const DAILY_LIMITS = { demo: 30, free: 100, annual: 10_000 } as const;

/** A plan of interface B. */
export type Plan = keyof typeof DAILY_LIMITS;

/** The annual plan's price, in KRW a year (bank transfer; confirmed by the operator). */
export const ANNUAL_PRICE_KRW = 9900;

/** Applications (`POST /subscribe`) one client IP may make per metering day. */
export const APPLICATIONS_PER_IP = 5;

/** The largest application body, in bytes. */
export const MAX_BODY_BYTES = 8 * 1024;

/** Who is on each plan and the key statuses that go with it, for the reference's plan table. */
export const PLAN_TABLE: readonly { plan: Plan | "—"; who: string; daily_limit: number; statuses: string }[] = [
  { plan: "demo", who: "No key; counted per client IP (IPv6 clients per /64)", daily_limit: DAILY_LIMITS.demo, statuses: "—" },
  { plan: "free", who: "Key issued by POST /subscribe, deposit not yet confirmed", daily_limit: DAILY_LIMITS.free, statuses: "pending_deposit" },
  {
    plan: "annual",
    who: `Deposit confirmed; valid one year from confirmation (${count(ANNUAL_PRICE_KRW)} KRW a year, bank transfer)`,
    daily_limit: DAILY_LIMITS.annual,
    statuses: "active, then expired",
  },
  { plan: "—", who: "Key revoked by the operator", daily_limit: 0, statuses: "revoked" },
];
