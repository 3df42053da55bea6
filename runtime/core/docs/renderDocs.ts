/** Renders the OpenAPI document as one self-contained HTML page (no scripts, no external assets). */
import type { OpenApiDocument } from "./openapi.ts";

export function renderDocs(document: OpenApiDocument): string {
  const title = escapeHtml(document.info.title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
