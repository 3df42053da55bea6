/** The HTTP conformance suite on the esbuild bundle run by Bun. */
import { bundled } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Bun, bundle", bundled("bun"));
