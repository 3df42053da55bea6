/**
 * Renders the OpenAPI document as one self-contained HTML API reference: no scripts, styles
 * inline, works offline. Every text from the document is escaped.
 */
import { EXAMPLE_ORIGIN, curlCommand } from "./curl.ts";
import { boundsOf, propertyTable, typeLabel } from "./describeSchema.ts";
import { escapeHtml } from "../util/escapeHtml.ts";
import { inline, markdown } from "./markdown.ts";
import { count } from "../util/count.ts";
import { sha256Hex } from "../util/sha256Hex.ts";
import {
  type Header,
  type Method,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type Reference,
  type Response,
  type Schema,
  isReference,
} from "./types.ts";

export { escapeHtml } from "../util/escapeHtml.ts";

const METHODS: Method[] = ["get", "post"];

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans KR",sans-serif;margin:0;color:#1d232a;background:#fff}
header{background:#1d3557;color:#fff;padding:1.2rem 2rem}header a{color:#fff}header h1{margin:0;font-size:1.6rem}header p{margin:.2rem 0 0;opacity:.85}
.layout{display:flex;align-items:flex-start}nav{position:sticky;top:0;max-height:100vh;overflow:auto;width:17rem;flex:none;padding:1rem;border-right:1px solid #dde3ea;font-size:.9rem;box-sizing:border-box}
nav ul{list-style:none;padding-left:.8rem;margin:.2rem 0}nav a{color:#1d3557;text-decoration:none}nav a:hover{text-decoration:underline}
main{flex:1;min-width:0;padding:1rem 2rem 4rem;max-width:72rem}h2{border-bottom:2px solid #1d3557;padding-bottom:.2rem;margin-top:2.5rem}
section.op{border:1px solid #dde3ea;border-radius:6px;padding:.2rem 1rem 1rem;margin:1.2rem 0}
.method{display:inline-block;min-width:3.2rem;text-align:center;border-radius:4px;padding:0 .4rem;color:#fff;font-weight:600;font-size:.85rem;margin-right:.4rem}
.get{background:#2a7f62}.post{background:#9c5215}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;background:#f1f4f7;padding:0 .2em;border-radius:3px}
pre{background:#0f1720;color:#e6edf3;padding:.7rem 1rem;border-radius:6px;overflow:auto}pre code{background:none;color:inherit;padding:0}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.9rem}th,td{border:1px solid #dde3ea;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f1f4f7}
tr:target{background:#fff6d6}.muted{color:#5b6570}
@media (max-width:48rem){.layout{display:block}nav{position:static;width:auto;max-height:none;border-right:0;border-bottom:1px solid #dde3ea}
main{padding:1rem 1rem 3rem}header{padding:1rem}table{display:block;overflow-x:auto}code{overflow-wrap:anywhere}}
`;

/**
 * The reference's Content-Security-Policy: its one style sheet (by hash: no other inline style or
 * script runs), nothing else loaded, no form, and no site may frame it.
 */
export function docsPolicy(): string {
  const digest = sha256Hex(STYLE).match(/[0-9a-f]{2}/g) ?? [];
  const base64 = btoa(String.fromCharCode(...digest.map((byte) => Number.parseInt(byte, 16))));
  return `default-src 'none'; style-src 'sha256-${base64}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** The path the document's one server entry names, ending in `/` (`/`, or `/lexicon/` when mounted). */
function serviceRoot(document: OpenApiDocument): string {
  const url = document.servers[0]?.url ?? "/";
  return url.endsWith("/") ? url : `${url}/`;
}

/** The reference page for `document`. */
export function renderDocs(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const tags = document.tags.map((tag) => ({ ...tag, operations: operations.filter((o) => o.operation.tags.includes(tag.name)) }));
  const nav = [
    `<li><a href="#introduction">Introduction</a></li>`,
    `<li><a href="#authentication">Authentication and quotas</a></li>`,
    `<li><a href="#errors">Errors</a></li>`,
    ...tags.map(
      (tag) =>
        `<li><a href="#tag-${escapeHtml(tag.name)}">${escapeHtml(tag.name)}</a><ul>${tag.operations
          .map((o) => `<li><a href="#op-${escapeHtml(o.operation.operationId)}">${o.method.toUpperCase()} ${escapeHtml(o.path)}</a></li>`)
          .join("")}</ul></li>`,
    ),
    `<li><a href="#schemas">Schemas</a></li>`,
  ];
  const title = `${document.info.title} ${document.info.version}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} reference</title><style>${STYLE}</style></head>
<body>
<header><h1>${escapeHtml(title)}</h1><p>API reference · <a href="${escapeHtml(serviceRoot(document))}openapi.json">OpenAPI document</a> · <a href="${escapeHtml(serviceRoot(document))}">Search, study and quiz in the browser</a></p></header>
<div class="layout">
<nav><ul>${nav.join("\n")}</ul></nav>
<main>
<section id="introduction"><h2>Introduction</h2>
${markdown(document.info.description)}
<p>The curl examples below send their requests to the default address, <code>${escapeHtml(EXAMPLE_ORIGIN)}</code>: replace it with your server's.</p>
</section>
${renderAuthentication(document)}
${renderErrors(document)}
${tags.map((tag) => `<section id="tag-${escapeHtml(tag.name)}"><h2>${escapeHtml(tag.name)}</h2>\n<p>${inline(tag.description)}</p>\n${tag.operations.map((o) => renderOperation(document, o)).join("\n")}</section>`).join("\n")}
${renderSchemas(document)}
</main>
</div>
</body>
</html>
`;
}

interface Listed {
  path: string;
  method: Method;
  operation: Operation;
}

function listOperations(document: OpenApiDocument): Listed[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, operation: item[method] as Operation }] : [])),
  );
}

/** Follows a `#/components/...` reference. */
function resolve<T>(document: OpenApiDocument, value: T | Reference): T {
  if (!isReference(value)) return value;
  const [, , kind, name] = value.$ref.split("/");
  const found = (document.components as Record<string, Record<string, unknown>>)[kind ?? ""]?.[name ?? ""];
  if (found === undefined) throw new Error(`renderDocs: unresolved reference ${value.$ref}`);
  return found as T;
}

function renderAuthentication(document: OpenApiDocument): string {
  const schemes = Object.entries(document.components.securitySchemes)
    .map(([name, s]) => {
      const where = s.type === "apiKey" ? `${escapeHtml(s.in ?? "")} <code>${escapeHtml(s.name ?? "")}</code>` : `header <code>Authorization: Bearer …</code>`;
      return `<tr><td>${escapeHtml(name)}</td><td>${where}</td><td>${inline(s.description)}</td></tr>`;
    })
    .join("\n");
  const plans = document["x-plans"]
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.plan)}</code></td><td>${escapeHtml(p.who)}</td><td>${count(p.daily_limit)}</td><td>${escapeHtml(p.statuses)}</td></tr>`,
    )
    .join("\n");
  const headerRows = ["RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "ETag"]
    .map((name) => [name, document.components.headers[name]] as const)
    .filter((entry): entry is readonly [string, Header] => entry[1] !== undefined)
    .map(([name, h]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${typeLabel(h.schema)}</td><td>${inline(h.description)}</td></tr>`)
    .join("\n");
  return `<section id="authentication"><h2>Authentication and quotas</h2>
<p>Interface A needs no key. Interface B takes an optional key; without one a call runs as the free demo, limited per client IP. Keys come from <code>POST /subscribe</code>.</p>
<table><thead><tr><th>Scheme</th><th>Sent in</th><th>Description</th></tr></thead><tbody>
${schemes}
</tbody></table>
<h3>Plans and daily limits</h3>
<table><thead><tr><th>Plan</th><th>Who</th><th>Calls per day</th><th>Key status</th></tr></thead><tbody>
${plans}
</tbody></table>
<h3>Response headers</h3>
<table><thead><tr><th>Header</th><th>Type</th><th>Meaning</th></tr></thead><tbody>
${headerRows}
</tbody></table>
</section>`;
}

function renderErrors(document: OpenApiDocument): string {
  const rows = document["x-error-codes"]
    .map(
      (e) =>
        `<tr id="error-${escapeHtml(e.code)}"><td><a href="#error-${escapeHtml(e.code)}"><code>${escapeHtml(e.code)}</code></a></td><td>${e.status.join(", ")}</td><td>${escapeHtml(e.title)}</td><td>${inline(e.description)}</td></tr>`,
    )
    .join("\n");
  const problem = document.components.schemas.Problem;
  return `<section id="errors"><h2>Errors</h2>
<p>Every error is a problem details body (RFC 9457) with <code>Content-Type: application/problem+json</code>. Its <code>type</code> links to the row of its <code>code</code> below.</p>
<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>When</th></tr></thead><tbody>
${rows}
</tbody></table>
${problem ? `<h3>Problem details body</h3>\n${propertyTable(problem)}` : ""}
</section>`;
}

function renderOperation(document: OpenApiDocument, { path, method, operation }: Listed): string {
  const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(document, p));
  const parameterRows = parameters
    .map((p) => {
      const defaultValue = p.schema.default === undefined ? "—" : `<code>${escapeHtml(JSON.stringify(p.schema.default))}</code>`;
      return `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? " <strong>required</strong>" : ""}</td><td>${escapeHtml(p.in)}</td><td>${typeLabel(p.schema)}</td><td>${boundsOf(p.schema) || "—"}</td><td>${defaultValue}</td><td>${inline(p.description)}</td></tr>`;
    })
    .join("\n");
  const body = operation.requestBody;
  const examples = operation["x-request-examples"]
    .map((e) => `<p class="muted">${escapeHtml(e.description)}</p>\n<pre tabindex="0"><code>${escapeHtml(curlCommand(method, path, e))}</code></pre>`)
    .join("\n");
  return `<section class="op" id="op-${escapeHtml(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code> — ${escapeHtml(operation.summary)}</h3>
${markdown(operation.description, 4)}
<p><strong>Authentication:</strong> ${renderSecurity(operation)}</p>
${parameters.length ? `<h4>Parameters</h4>\n<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Bounds</th><th>Default</th><th>Description</th></tr></thead><tbody>\n${parameterRows}\n</tbody></table>` : "<p>No parameters.</p>"}
${
  body
    ? `<h4>Request body</h4>\n<p>${inline(body.description)} ${Object.entries(body.content)
        .map(([type, m]) => `<code>${escapeHtml(type)}</code>: ${typeLabel(m.schema)}`)
        .join(", ")}</p>`
    : ""
}
<h4>Responses</h4>
${renderResponses(document, operation)}
<h4>Examples</h4>
${examples}
</section>`;
}

function renderSecurity(operation: Operation): string {
  const names = (operation.security ?? []).map((requirement) => Object.keys(requirement)[0]);
  if (names.length === 0 || names.every((n) => n === undefined)) return "none";
  const listed = names
    .filter((n): n is string => n !== undefined)
    .map((n) => `<code>${escapeHtml(n)}</code>`)
    .join(" or ");
  return names.includes(undefined) ? `optional (${listed})` : listed;
}

function renderResponses(document: OpenApiDocument, operation: Operation): string {
  const rows = Object.entries(operation.responses).map(([status, value]) => {
    const response = resolve<Response>(document, value);
    const content = Object.entries(response.content ?? {})
      .map(([type, media]) => `<code>${escapeHtml(type)}</code>: ${typeLabel(media.schema)}`)
      .join("<br>");
    const headerList = Object.entries(response.headers ?? {})
      .map(([name, h]) => `<code>${escapeHtml(name)}</code>${resolve<Header>(document, h).required ? "" : " (sometimes)"}`)
      .join(", ");
    return `<tr><td><strong>${escapeHtml(status)}</strong></td><td>${inline(response.description)}</td><td>${content || "no body"}</td><td>${headerList || "—"}</td></tr>`;
  });
  return `<table><thead><tr><th>Status</th><th>Meaning</th><th>Body</th><th>Headers</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

function renderSchemas(document: OpenApiDocument): string {
  const sections = Object.entries(document.components.schemas).map(([name, schema]: [string, Schema]) => {
    const table = propertyTable(schema);
    const summary = table || `<p>${typeLabel(schema)}${boundsOf(schema) ? `; ${boundsOf(schema)}` : ""}</p>`;
    return `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>\n${markdown(String(schema.description ?? ""), 4)}\n${summary}</section>`;
  });
  return `<section id="schemas"><h2>Schemas</h2>\n${sections.join("\n")}\n</section>`;
}
