/**
 * Real-browser helpers for the page's tests: Debian's Chromium driven by playwright-core (stable
 * APIs only), the service served in this process by node:http as `npm start` serves it, what a
 * page may not do (console errors, off-origin requests), axe-core, and screenshots.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import type { AppOptions } from "../../runtime/core/appOptions.ts";
import { nodeCompressors } from "../../runtime/entry/compressors.ts";
import { nodeListener } from "../../runtime/entry/nodeListener.ts";
import { ROOT, testApp } from "../helpers/app.ts";

/** Where the screenshots are written (git-ignored; named in docs/contributing.md). */
export const SCREENSHOTS = join(ROOT, "test-results/page");
/** A phone's viewport (390 × 844 CSS pixels). */
export const PHONE = { width: 390, height: 844 };
/** A desktop browser's viewport. */
export const DESKTOP = { width: 1280, height: 900 };
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Launches Chromium headless. playwright-core gives every launch a fresh profile of its own (a new
 * temporary --user-data-dir, removed on close). The background-networking flags keep it from
 * calling Google's services (a closed network refuses them, and the tests assert that the page
 * itself makes no request to another host).
 */
export async function launch(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

/** A service listening on a free loopback port. */
export interface Served {
  url: string;
  app: App;
  close(): Promise<void>;
}

/** Serves a test app (memory store) over node:http on 127.0.0.1 and a free port. */
export async function serve(options: Partial<AppOptions> = {}, prefix = ""): Promise<Served> {
  const app = testApp({ compressors: nodeCompressors, ...options });
  const listener = nodeListener(app);
  const server: Server = createServer((req, res) => {
    // A host that mounts the service under `prefix` strips it first (as examples/embed-node-http.ts does).
    if (prefix) {
      if (!req.url?.startsWith(`${prefix}/`)) {
        res.writeHead(404, { "Content-Type": "text/plain" }).end("host: not found");
        return;
      }
      req.url = req.url.slice(prefix.length);
    }
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    app,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    },
  };
}

/** What a page did that the tests forbid: console errors, uncaught errors, requests to another origin. */
export interface Watch {
  consoleErrors: string[];
  offOrigin: string[];
  requests: string[];
}

/** Opens a new page in its own context (own storage), watching its console and requests. */
export async function openPage(
  browser: Browser,
  origin: string,
  viewport = { width: 1280, height: 900 },
  locale = "en-US",
): Promise<{ page: Page; context: BrowserContext; watch: Watch }> {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  const watch: Watch = { consoleErrors: [], offOrigin: [], requests: [] };
  page.on("console", (message) => {
    if (message.type() === "error") watch.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => watch.consoleErrors.push(String(error)));
  page.on("request", (request) => {
    const url = request.url();
    watch.requests.push(url);
    if (!url.startsWith("data:") && new URL(url).origin !== new URL(origin).origin) watch.offOrigin.push(url);
  });
  return { page, context, watch };
}

/** What a test file's pages share: one browser and one service (memory store), for the whole file. */
export interface Session {
  browser: Browser;
  served: Served;
}

/** Launches the browser and serves the app before the file's tests, and closes both after them. */
export function useSession(): Session {
  const session = {} as Session;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const launched = await launch();
    close = launched.close;
    session.browser = launched.browser;
    session.served = await serve();
  });
  afterAll(async () => {
    await close?.();
    await session.served?.close();
  });
  return session;
}

/**
 * Nothing the tests forbid happened on the page. `expected` names statuses the test provoked on
 * purpose (a refused application, an exhausted quota) and network errors it provoked: Chromium logs
 * each as a console error of its own, and those alone are allowed.
 */
export function expectClean(watch: Watch, expected: (number | string)[] = []): void {
  const provoked = (message: string) =>
    expected.some((what) =>
      message.startsWith(
        typeof what === "number" ? `Failed to load resource: the server responded with a status of ${what} ` : `Failed to load resource: ${what}`,
      ),
    );
  expect(watch.consoleErrors.filter((message) => !provoked(message))).toEqual([]);
  expect(watch.offOrigin).toEqual([]);
}

/** Runs axe-core on the page as it is now; returns the serious and critical violations. */
export async function axe(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
    ).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** A full-page screenshot into SCREENSHOTS. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * What Chromium's PDF (`page.pdf`) says of the links to `https://mark.invalid/<name>` a test put in
 * the page: the page (0-based) each name first lands on, each page's size (`A4`, or its MediaBox in
 * points) and the page count. Skia writes each link as an object of its own and each page's
 * /Annots as references to them.
 */
export function markedPages(pdfBytes: Buffer): { pages: number; sizes: string[]; onPage: Map<string, number> } {
  const pdf = pdfBytes.toString("latin1");
  const marks = new Map<string, string>();
  for (const [, object, uri] of pdf.matchAll(/(\d+) 0 obj\s*<<\/Type \/Annot[^]*?\/URI \(https:\/\/mark\.invalid\/([^)]+)\)/g))
    marks.set(object as string, uri as string);
  const kids = /\/Type \/Pages\s*\/Count (\d+)\s*\/Kids \[([^\]]*)\]/.exec(pdf);
  const order = [...(kids?.[2] ?? "").matchAll(/(\d+) 0 R/g)].map((m) => m[1] as string);
  const onPage = new Map<string, number>();
  const sizes: string[] = [];
  for (const [n, object] of order.entries()) {
    const body = new RegExp(`(?:^|\\n)${object} 0 obj\\s*<<\\/Type \\/Page\\b[^]*?endobj`).exec(pdf)?.[0] ?? "";
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(body);
    // A4 is 595.28 × 841.89 pt; Chromium writes it to a whole number of its device pixels (595.92 × 842.88).
    const a4 = Math.abs(Number(box?.[1]) - 595.28) < 1.5 && Math.abs(Number(box?.[2]) - 841.89) < 1.5;
    sizes.push(a4 ? "A4" : `${box?.[1]}×${box?.[2]}`);
    for (const [, annot] of (/\/Annots \[([^\]]*)\]/.exec(body)?.[1] ?? "").matchAll(/(\d+) 0 R/g)) {
      const uri = marks.get(annot as string);
      if (uri && !onPage.has(uri)) onPage.set(uri, n);
    }
  }
  return { pages: Number(kids?.[1]), sizes, onPage };
}
