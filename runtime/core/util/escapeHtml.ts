/**
 * HTML escaping, for every layer that writes HTML: the reference page (`docs/`) and the reader's
 * ruby markup (`read/`), which sits below the reference and must not import it.
 */

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
