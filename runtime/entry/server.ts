/** The server program on Node, Bun and Deno (`npm start`, `start:bun`, `start:deno`, the bundle). */
import { startServer } from "./start.ts";

await startServer();
