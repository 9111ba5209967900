/**
 * The one file that reads what Express 5 (its `router` package) and Nest's `ExpressAdapter` do not
 * export: the router's layer stack, a layer's parts, and the adapter's hooks. Each read says what it
 * falls back to when the shape it expects is not there; `express-internals.contract.spec.ts` runs them
 * on a real Nest app on Express and fails, naming the installed versions, when one no longer holds.
 * @internal
 */
import { tracingChannel } from 'node:diagnostics_channel';

/** The little of a router layer read here: opaque to the rest of the edge. @internal */
export interface RouterLayer {
  handle?: unknown;
  name?: string;
  route?: object;
  match?(path: string): unknown;
}

/**
 * Adds `middleware` with `app.use()` and moves its layer to the front of `app.router.stack`, ahead of
 * the body parsers Nest registered first. Returns the stack (the layers the router runs, in order).
 * Falls back to nothing: throws at startup when the stack is not where it was, or the new layer is not
 * its last, since the endpoint's checks would otherwise run after the body was read.
 */
export function useAheadOfAll(expressApp: unknown, middleware: Function): RouterLayer[] {
  const app = expressApp as { use(handler: Function): void; router?: { stack?: RouterLayer[] } };
  app.use(middleware);
  const stack = app.router?.stack;
  if (!Array.isArray(stack) || stack.at(-1)?.handle !== middleware) {
    throw new Error('McpModule: cannot place the MCP endpoint checks ahead of the body parsers (Express router internals changed)');
  }
  stack.unshift(stack.pop()!);
  return stack;
}

/** Whether the layer runs `handler` (the layer's `handle`). */
export function layerRuns(layer: RouterLayer | undefined, handler: unknown): boolean {
  return layer?.handle === handler;
}

/**
 * Whether the layer would run for `path` (its `match()`): `undefined` when it has no `match()` to ask,
 * which the caller takes for "cannot tell" (the router then runs). Throws for a path the router cannot decode.
 */
export function layerMatches(layer: RouterLayer, path: string): boolean | undefined {
  return typeof layer.match === 'function' ? Boolean(layer.match(path)) : undefined;
}

/** The route a layer leads to (what the router sets as `req.route`); `undefined` for a middleware layer. */
export function layerRoute(layer: RouterLayer): object | undefined {
  return layer.route;
}

/** Nest's own body parsers, by their function names: they skip a body already read (`req.body` set). */
const NEST_BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

/** One of Nest's body parsers, known by the layer's `name` (body-parser's function names); else not one. */
export function isNestBodyParser(layer: RouterLayer): boolean {
  return NEST_BODY_PARSERS.has(layer.name ?? '');
}

/**
 * The middleware Nest's `ExpressAdapter` adds first, for its adapter hooks (`setOnRequestHook`,
 * `setOnResponseHook`): it only calls `next()` while neither is set. Known by its arity and its source
 * text (it is an anonymous arrow function); anything else is not it, so the router runs.
 */
export function isNestHooksLayer(layer: RouterLayer): boolean {
  return typeof layer.handle === 'function' && layer.handle.length === 3 && String(layer.handle).includes('onRequestHook');
}

/**
 * Whether neither of `ExpressAdapter`'s hooks is set: read from the fields its setters write
 * (`onRequestHook`, `onResponseHook`), which it declares but does not publish.
 */
export function nestHooksIdle(httpAdapter: unknown): boolean {
  const hooks = httpAdapter as { onRequestHook?: unknown; onResponseHook?: unknown } | undefined;
  return hooks?.onRequestHook === undefined && hooks?.onResponseHook === undefined;
}

/**
 * A layer whose handler another package replaced (shimmer's marks, as OpenTelemetry's instrumentations
 * leave them), or whose handler is not a function: either way the router runs.
 */
export function isWrapped(layer: RouterLayer): boolean {
  const handle = layer.handle;
  if (typeof handle !== 'function') return true;
  const marks = handle as { __wrapped?: unknown; __original?: unknown };
  return marks.__wrapped !== undefined || marks.__original !== undefined;
}

/** How the `router` package publishes each layer it runs, for tracers. */
const ROUTER_TRACING = tracingChannel('express.router.request');

/** Whether a tracer listens to the router's layers (then the router runs, for it to see them). */
export function routerIsTraced(): boolean {
  const { start, end, asyncStart, asyncEnd, error } = ROUTER_TRACING;
  return start.hasSubscribers || end.hasSubscribers || asyncStart.hasSubscribers || asyncEnd.hasSubscribers || error.hasSubscribers;
}
