/**
 * The one file that reads what Fastify does not export: a request's route context (the hooks Fastify
 * merged into the route) and how it keeps a route's hooks (bound to its instance). Each read says what
 * it falls back to; `fastify-internals.contract.spec.ts` runs them on a real Nest app on Fastify and
 * fails, naming the installed versions, when one no longer holds.
 * @internal
 */

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
