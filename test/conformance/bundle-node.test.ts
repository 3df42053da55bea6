/** The HTTP conformance suite on the esbuild bundle run by Node. */
import { bundled } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Node, bundle", bundled("node"));
