/** The HTTP conformance suite on the `bun build --compile` binary, run from an empty folder. */
import { compiledBinary } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("compiled binary", compiledBinary);
