/** What the OpenAPI document's schemas share beyond the builders of `runtime/format/schema.ts`. */
import type { Schema } from "./types.ts";

/** `success: true` of every successful interface-B body. */
export const SUCCESS: Schema = { const: true, description: "Always true on success." };
