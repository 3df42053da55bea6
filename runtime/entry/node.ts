/** Alias of server.ts, kept for scripts that name the Node entry. */
import "./server.ts";
