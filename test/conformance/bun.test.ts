/** The HTTP conformance suite on Bun: `bun runtime/entry/server.ts`. */
import { bunSource } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Bun, source entry", bunSource);
