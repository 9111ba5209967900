/**
 * The one file that relies on what Fastify does not export or document: a request's route context (the
 * hooks Fastify merged into the route), how it keeps a route's hooks (bound to its instance), how it
 * decides a request has no body, and what it reads of a payload stream. Each says what it falls back to; `fastify-internals.contract.spec.ts` runs them on a real Nest app on Fastify and
 * fails, naming the installed versions, when one no longer holds.
 * @internal
 */

import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** The hooks of a route's context read here. @internal */
export interface RouteHooks {
  preValidation?: unknown;
  preHandler?: unknown;
}

/** Fastify's key of a request's route context: not exported, found by its description once. */
let routeContextKey: symbol | undefined;

/**
 * The route context of a Fastify request (the object under its `Symbol(fastify.context)`), one per route
 * and fixed once Fastify is ready; `undefined` when there is no such symbol, which the caller takes for
 * a route with hooks (Fastify's own steps then run).
 */
export function routeContextOf(request: object): RouteHooks | undefined {
  routeContextKey ??= Object.getOwnPropertySymbols(request).find((key) => key.description === 'fastify.context');
  return routeContextKey && (request as Record<symbol, RouteHooks | undefined>)[routeContextKey];
}

/**
 * Whether `hook`, as the route context holds it, is `ours`: Fastify keeps a hook bound to its instance,
 * so it is known by the bound function's name (`bound restoreMcpBody`, unusual enough). Anything else is
 * not ours, so Fastify's own steps run.
 */
export function isHookOf(hook: unknown, ours: Function): boolean {
  return hook === ours || (typeof hook === 'function' && hook.name === `bound ${ours.name}`);
}

/** The headers that frame a body. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;

/**
 * Sets the request's framing headers aside and returns them (to be put back with `Object.assign`): with
 * no `Content-Type`, no `Transfer-Encoding` and no `Content-Length`, Fastify takes the request for one
 * without a body and runs no content-type parser. Undefined rather than deleted: Fastify tests for
 * undefined, and the object keeps its shape. No fallback: the contract spec guards it.
 */
export function hideBodyFromFastify(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const hidden: IncomingMessage['headers'] = {};
  for (const name of BODY_HEADERS) {
    if (headers[name] === undefined) continue;
    hidden[name] = headers[name] as string;
    headers[name] = undefined;
  }
  return hidden;
}

/**
 * A payload for Fastify's content-type parser in place of a body it need not read: `bytes`, counted as
 * the declared length (its `receivedEncodedLength`, which Fastify compares with `Content-Length` before
 * the bytes it read). A declared 0 cannot match (Fastify's check is `received || read`); Node has framed
 * the body already, so that header is dropped. No fallback: the contract spec guards it.
 */
export function standInPayload(headers: IncomingMessage['headers'], bytes: Buffer): Readable {
  if (headers['content-length'] === '0') delete headers['content-length'];
  return Object.assign(Readable.from([bytes]), { receivedEncodedLength: Number(headers['content-length']) || 0 });
}
