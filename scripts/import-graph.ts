/**
 * The import graph of the project's code (`runtime/`, `pipeline/`, `web/`, `scripts/`), read with
 * the TypeScript compiler's own import scanner: every relative `import`, `export … from` and
 * `import()` of a `.ts` file, type-only ones included (a loop through types is still a loop to a
 * reader). `npx tsx scripts/import-graph.ts` prints files, edges, the largest file, the loops and the
 * arrows the layering forbids (DESIGN.md "Layers"); test/architecture/importGraph.test.ts fails on
 * any loop or forbidden arrow.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["runtime", "pipeline", "web", "scripts"];

/**
 * The layers above the core's domain, top to bottom as DESIGN.md draws them: the operations, the
 * routes (parameter specs, metering), the reference (`docs/`) and HTTP. The domain imports none.
 */
export const UPPER_FOLDERS = ["runtime/core/operations", "runtime/core/routes", "runtime/core/docs", "runtime/core/http"];
/** The domain folders of the core: they know records and rules, never HTTP, the reference, the routes or the operations. */
export const DOMAIN_FOLDERS = [
  "runtime/core/quiz",
  "runtime/core/quota",
  "runtime/core/classes",
  "runtime/core/hanja",
  "runtime/core/idioms",
  "runtime/core/read",
  "runtime/core/words",
  "runtime/core/metrics",
];
/** Below the domain: the data as loaded, and the helpers every layer uses. They import none of the upper layers either. */
export const BASE_FOLDERS = ["runtime/core/data", "runtime/core/util"];
/** The core: Web APIs only, passed its store, options and page; it never reaches out to what is built around it. */
export const CORE_FOLDER = "runtime/core";
/** What is built around the core: the store drivers, the server programs, the command-line tools and the page (its module and its built assets). */
export const OUTER_FOLDERS = ["runtime/stores", "runtime/entry", "runtime/cli", "runtime/page", "web"];
/** The one module of the runtime the pipeline may import: the `dist/` format and the records both sides share. */
export const SHARED_FORMAT = "runtime/format";

export interface ImportGraph {
  /** Files by path from the root, with their line counts. */
  lines: Map<string, number>;
  /** Importing file → imported files (paths from the root). */
  edges: Map<string, Set<string>>;
}

/** Reads every `.ts` file under the project's code folders and the relative imports between them. */
export function readImportGraph(root = ROOT): ImportGraph {
  const lines = new Map<string, number>();
  const edges = new Map<string, Set<string>>();
  for (const file of FOLDERS.flatMap((folder) => tsFiles(join(root, folder)))) {
    const text = readFileSync(file, "utf8");
    const from = relative(root, file);
    lines.set(from, text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
    const targets = new Set<string>();
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".") || !fileName.endsWith(".ts")) continue;
      targets.add(relative(root, resolve(dirname(file), fileName)));
    }
    edges.set(from, targets);
  }
  return { lines, edges };
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || (entry.name === "data" && dir.endsWith("pipeline")) ? [] : tsFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The import loops: every strongly connected set of more than one file (or a file importing itself), each sorted. */
export function importLoops({ edges }: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const loops: string[][] = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; targets: string[]; at: number }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(edges.get(node) ?? [])], at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++] as string;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || edges.get(frame.node)?.has(frame.node)) loops.push(members.sort());
    }
  }
  return loops;
}

/** The arrows of `graph` from a file under one of `from` to a file under `to`, as `a → b`. */
export function arrowsInto({ edges }: ImportGraph, from: readonly string[], to: string, except?: string): string[] {
  const under = (file: string, folder: string) => file.startsWith(`${folder}/`);
  return [...edges].flatMap(([a, targets]) =>
    from.some((folder) => under(a, folder)) ? [...targets].filter((b) => under(b, to) && !(except && under(b, except))).map((b) => `${a} → ${b}`) : [],
  );
}

/**
 * The arrows the layering forbids: a domain folder (or the data and helpers below it) into a layer
 * above it (HTTP, the reference, the routes, the operations); the shared format out of itself (the
 * record and interface schemas, the dist/ format: the pipeline and every layer of the runtime
 * import it, so it imports nothing of theirs); the pipeline into the runtime other than that
 * format; the core into the stores, the server programs, the command-line tools or the page.
 */
export function forbiddenArrows(graph: ImportGraph): ForbiddenArrows {
  return {
    domainUpward: UPPER_FOLDERS.flatMap((folder) => arrowsInto(graph, [...DOMAIN_FOLDERS, ...BASE_FOLDERS], folder)),
    formatOutward: arrowsInto(graph, [SHARED_FORMAT], "runtime", SHARED_FORMAT).concat(
      ["pipeline", "web", "scripts"].flatMap((folder) => arrowsInto(graph, [SHARED_FORMAT], folder)),
    ),
    pipelineToRuntime: arrowsInto(graph, ["pipeline"], "runtime", SHARED_FORMAT),
    coreToOuter: OUTER_FOLDERS.flatMap((folder) => arrowsInto(graph, [CORE_FOLDER], folder)),
  };
}

/** The forbidden arrows, by the rule each breaks (`a → b`). */
export interface ForbiddenArrows {
  domainUpward: string[];
  formatOutward: string[];
  pipelineToRuntime: string[];
  coreToOuter: string[];
}

/**
 * The folders of the core that no layer names (neither upper, domain nor base): a new folder must be
 * placed in one, or the rules above would not see its arrows (as `words/` once went unseen).
 */
export function unplacedCoreFolders({ lines }: ImportGraph): string[] {
  const placed = new Set([...UPPER_FOLDERS, ...DOMAIN_FOLDERS, ...BASE_FOLDERS]);
  const folders = [...lines.keys()].flatMap((file) => {
    const [runtime, core, folder, ...rest] = file.split("/");
    return runtime === "runtime" && core === "core" && rest.length > 0 ? [`runtime/core/${folder}`] : [];
  });
  return [...new Set(folders)].filter((folder) => !placed.has(folder)).sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = readImportGraph();
  const [largest, largestLines] = [...graph.lines].reduce((a, b) => (b[1] > a[1] ? b : a));
  const edgeCount = [...graph.edges.values()].reduce((n, targets) => n + targets.size, 0);
  const loops = importLoops(graph);
  const { domainUpward, formatOutward, pipelineToRuntime, coreToOuter } = forbiddenArrows(graph);
  const unplaced = unplacedCoreFolders(graph);
  const allPipelineToRuntime = arrowsInto(graph, ["pipeline"], "runtime");
  const overLimit = [...graph.lines].filter(([, n]) => n > 300).sort((a, b) => b[1] - a[1]);
  console.log(`files: ${graph.lines.size}`);
  console.log(`edges: ${edgeCount}`);
  console.log(`largest file: ${largest} (${largestLines} lines)`);
  console.log(`files over 300 lines: ${overLimit.map(([f, n]) => `${f} (${n})`).join(", ") || "none"}`);
  console.log(`loops: ${loops.length}`);
  for (const loop of loops) console.log(`  ${loop.join(" ↔ ")}`);
  console.log(`core folders in no layer: ${unplaced.join(", ") || "none"}`);
  console.log(`domain → http/docs/routes/operations arrows: ${domainUpward.length}`);
  for (const arrow of domainUpward) console.log(`  ${arrow}`);
  console.log(`runtime/format → outside it arrows: ${formatOutward.length}`);
  for (const arrow of formatOutward) console.log(`  ${arrow}`);
  console.log(`core → stores/entry/cli/page/web arrows: ${coreToOuter.length}`);
  for (const arrow of coreToOuter) console.log(`  ${arrow}`);
  console.log(`pipeline → runtime imports: ${allPipelineToRuntime.length} (outside ${SHARED_FORMAT}/: ${pipelineToRuntime.length})`);
  for (const arrow of allPipelineToRuntime) console.log(`  ${arrow}`);
}
