/**
 * The edge host the workerd test runs: a Web-standard module worker importing the installed
 * package and its data as text modules (the way Wrangler's `Text` rules, or esbuild's `text`
 * loader, import a file), and the workerd configuration that serves it on a loopback socket.
 */
import { RUNTIME_FILES } from "../../runtime/format/dist.ts";

/** The worker's source: every runtime data file imported, the app made on the first request. */
export const WORKER = `import { createApp } from "hanja-api";
${RUNTIME_FILES.map((name, i) => `import file${i} from "hanja-api/data/${name}";`).join("\n")}

const dist = { ${RUNTIME_FILES.map((name, i) => `${JSON.stringify(name)}: file${i}`).join(", ")} };
// Made on the first request, not at start-up: a worker may not draw random numbers (quiz ids)
// in its global scope, and the start-up time limit stays untouched by parsing the data.
let app;
export default {
  fetch(request) {
    app ??= createApp({ dist });
    return app.fetch(request, { clientAddress: request.headers.get("CF-Connecting-IP") ?? undefined });
  },
};
`;

/** workerd's configuration: one worker, one HTTP socket (its address given on the command line). */
export const WORKERD_CONFIG = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .hanja)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const hanja :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-11-01",
);
`;
