/** `npm start`: builds dist/ when it is missing or stale, then serves on Node. */
import { ensureDist } from "./ensureDist.ts";

if (!process.argv.includes("--help") && !process.argv.includes("-h")) await ensureDist();
await import("../runtime/entry/server.ts");
