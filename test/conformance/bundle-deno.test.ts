/** The HTTP conformance suite on the esbuild bundle run by Deno. */
import { bundled } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Deno, bundle", bundled("deno"));
