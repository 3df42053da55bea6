/** `npm start`: builds dist/ when it is missing or stale (unless DIST_DIR names the data), then serves on Node. */
import { ensureServedDist } from "./ensureDist.ts";

if (!process.argv.includes("--help") && !process.argv.includes("-h")) await ensureServedDist();
await import("../runtime/entry/server.ts");
