import { join } from "node:path";
import { type App, createApp } from "../../runtime/core/app.ts";
import type { AppOptions } from "../../runtime/core/appOptions.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import type { DistFiles } from "../../runtime/core/data/load.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { page } from "../../runtime/page/index.ts";

export const ROOT = join(import.meta.dirname, "../..");
let dist: DistFiles | undefined;

/** The built dist/ files, read once per test file. */
export function distFiles(): DistFiles {
  return (dist ??= loadDistFiles(join(ROOT, "dist")));
}

/** The text of one built dist/ file, whether `loadDistFiles` reads it as text or as bytes. */
export function distText(name: string): string {
  const file = distFiles()[name];
  if (file === undefined) throw new Error(`no ${name} in dist/`);
  return typeof file === "string" ? file : new TextDecoder().decode(file);
}

/** An app over the built dist/ with test options, serving the page as the server programs do. */
export function testApp(options: Partial<AppOptions> = {}): App {
  return createApp({ dist: distFiles(), onError: () => {}, page, ...options });
}

/** GET (or another method) a path on the app and return the response. */
export function call(app: App, path: string, init: RequestInit & { clientAddress?: string } = {}): Promise<Response> {
  const { clientAddress, ...rest } = init;
  return app.fetch(new Request(`http://localhost${path}`, rest), { clientAddress: clientAddress ?? "127.0.0.1" });
}

/** GET a path and parse its JSON body. */
export async function getJson<T = any>(
  app: App,
  path: string,
  init: RequestInit & { clientAddress?: string } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await call(app, path, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/**
 * The built dist/ files with only the first `count` idioms (and quiz tables to match: no groups,
 * nothing withheld, no hard pools), for tests that need a small idiom list.
 */
export function distWithFirstIdioms(count: number): DistFiles {
  const files = distFiles();
  const idioms = (JSON.parse(files[DIST_FILES.idioms] as string) as unknown[]).slice(0, count);
  const none = idioms.map(() => []);
  return {
    ...files,
    [DIST_FILES.idioms]: JSON.stringify(idioms),
    [DIST_FILES.quiz]: JSON.stringify({ group: none, mature: [], lookalike: none, theme: none }),
  };
}
