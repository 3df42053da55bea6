/** The HTTP conformance suite on Deno: `deno run` with start:deno's narrow permissions. */
import { denoSource } from "./servers.ts";
import { conformanceSuite } from "./suite.ts";

conformanceSuite("Deno, source entry", denoSource);
