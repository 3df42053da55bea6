/**
 * Web `Response`s for the core's replies on servers that need one (Bun, Deno). Building a
 * `Response` with its headers costs more than cloning one (on Deno several times more), so each
 * shared reply — an unchanging body in one encoding — gets one ready `Response` that every request
 * of that kind receives a clone of.
 */
import type { Reply } from "../core/http/reply.ts";
import { toResponse } from "../core/http/reply.ts";

const ready = new WeakMap<Reply, Response>();

export function responseFor(reply: Reply): Response {
  if (!reply.shared) return toResponse(reply);
  let template = ready.get(reply);
  if (template === undefined) ready.set(reply, (template = toResponse(reply)));
  return template.clone();
}

/** `responseFor` of a reply that may still be coming; no promise when it is already there. */
export function respond(reply: Reply | Promise<Reply>): Response | Promise<Response> {
  return "then" in reply ? reply.then(responseFor) : responseFor(reply);
}

/** `response` ending its connection after it: the answers after a shutdown signal (a clone's headers are its own). */
export function closing(response: Response): Response {
  response.headers.set("Connection", "close");
  return response;
}
