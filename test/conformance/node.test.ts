/** The HTTP conformance suite on Node: `node --import tsx runtime/entry/server.ts`. */
import { nodeSource } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Node, source entry", nodeSource);
