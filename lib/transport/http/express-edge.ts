import { tracingChannel } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeJsonRpcError } from './json-response.js';
import type { AnsweringEdge } from './request-body.js';

type ExpressRequest = IncomingMessage & { body?: unknown; route?: object };
type Middleware = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The little of an Express 5 router layer (the `router` package) the shortcut reads. */
interface RouterLayer {
  handle?: unknown;
  name?: string;
  route?: object;
  match?(path: string): unknown;
}

/**
 * On Express the endpoint's checks and body reading run as a middleware ahead of the application's
 * body parsers: Origin, Host, media type and size are judged before a byte of the body is read, and
 * `req.body` is set, so the application's parsers skip it. When nothing else in the application would
 * see the POST (`ExpressShortcut`), the edge answers it at once instead of walking the rest of the
 * router to the controller, which would only hand it back, allocating on the way (docs/benchmarks.md).
 */
export function installExpressEdge(expressApp: unknown, edge: AnsweringEdge, shortcut: ExpressShortcut): void {
  const middleware: Middleware = (req, res, next) => {
    if (req.method !== 'POST' || !edge.isEndpoint(req.url ?? '')) return next();
    void edge.admit(req, res).then((read) => {
      if (!('body' in read)) return writeJsonRpcError(res, read.status, read.error);
      req.body = read.body;
      const route = edge.nestAddsNothing() ? shortcut.routeFor(req.url ?? '') : undefined;
      if (!route) return next();
      // As the router leaves it for the route's handler.
      req.route = route;
      edge.handlePost(req, res);
    }, next);
  };
  shortcut.attach(placeAheadOfBodyParsers(expressApp, middleware), middleware);
}

/**
 * Express runs middleware in `app.router.stack` order, and Nest registers its body parsers before
 * any module code runs, so a plain `use()` would come after them. Moving the new layer to the front
 * is the one place that relies on Express's router internals; it throws at startup if they change
 * (and the hostile-input e2e tests check that a foreign Origin is refused before the body is read).
 */
function placeAheadOfBodyParsers(expressApp: unknown, middleware: Middleware): RouterLayer[] {
  const app = expressApp as { use(handler: Middleware): void; router?: { stack?: RouterLayer[] } };
  app.use(middleware);
  const stack = app.router?.stack;
  if (!Array.isArray(stack) || stack.at(-1)?.handle !== middleware) {
    throw new Error('McpModule: cannot place the MCP endpoint checks ahead of the body parsers (Express router internals changed)');
  }
  stack.unshift(stack.pop()!);
  return stack;
}

/** Nest's own body parsers: they skip a body the edge has read. */
const NEST_BODY_PARSERS = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

/**
 * The middleware Nest's ExpressAdapter adds first, for its adapter hooks (`setOnRequestHook`,
 * `setOnResponseHook`): it only calls `next()` while neither is set (`ExpressShortcut` asks).
 */
function isNestHooksLayer(layer: RouterLayer): boolean {
  return typeof layer.handle === 'function' && layer.handle.length === 3 && String(layer.handle).includes('onRequestHook');
}

/** How the `router` package publishes each layer it runs, for tracers. */
const ROUTER_TRACING = tracingChannel('express.router.request');
/** Distinct paths whose answer is kept (the endpoint has a few spellings: case, a trailing slash). */
const MAX_KEPT_PATHS = 32;

/**
 * Whether the edge may answer a POST without walking the rest of the Express router. It may when, for
 * the request's path, the router would reach the MCP controller's route next with nothing between:
 * every layer after the edge is one of Nest's body parsers or its idle hooks middleware, or does not
 * match the path, up to the first route that matches, and that route is the MCP controller's own
 * (learnt from `req.route` the first time Nest routes a POST to the controller, so the first POST of
 * each path always takes the router). Any middleware of the application's or Nest's (`app.use`,
 * `MiddlewareConsumer`, CORS), another route on the path, a wrapped layer (an instrumentation's) or a
 * subscriber to the router's tracing channel keeps the whole router. Kept per path until the stack grows.
 */
export class ExpressShortcut {
  private readonly ours = new WeakSet<object>();
  private stack: RouterLayer[] = [];
  private edge: unknown;
  private keptFor = -1;
  private readonly kept = new Map<string, object | undefined>();

  /** @param hooksIdle true while Nest's adapter hooks are unset, so its hooks middleware only calls `next()`. */
  constructor(private readonly hooksIdle: () => boolean) {}

  attach(stack: RouterLayer[], edge: unknown): void {
    this.stack = stack;
    this.edge = edge;
  }

  /** The controller saw a POST the router brought: its route is the MCP route. */
  learn(req: object): void {
    const route = (req as { route?: unknown }).route;
    if (typeof route !== 'object' || route === null || this.ours.has(route)) return;
    this.ours.add(route);
    this.kept.clear();
  }

  /** The MCP route a POST to `url` would reach with nothing in between, or undefined. */
  routeFor(url: string): object | undefined {
    if (routerIsTraced() || !this.hooksIdle()) return undefined;
    const path = url.split('?')[0];
    if (this.keptFor !== this.stack.length) {
      this.kept.clear();
      this.keptFor = this.stack.length;
    }
    if (this.kept.has(path)) return this.kept.get(path);
    const route = this.walk(path);
    if (this.kept.size < MAX_KEPT_PATHS) this.kept.set(path, route);
    return route;
  }

  private walk(path: string): object | undefined {
    const [first, ...rest] = this.stack;
    if (first?.handle !== this.edge || isWrapped(first)) return undefined;
    try {
      for (const layer of rest) {
        if (typeof layer.match !== 'function') return undefined;
        if (!layer.match(path)) continue;
        if (layer.route) return this.ours.has(layer.route) && !isWrapped(layer) ? layer.route : undefined;
        if (!NEST_BODY_PARSERS.has(layer.name ?? '') && !isNestHooksLayer(layer)) return undefined;
      }
    } catch {
      // A path the router cannot decode: it answers that itself.
    }
    return undefined;
  }
}

/** A layer whose handler another package replaced (shimmer's marks, as OpenTelemetry's instrumentations leave them). */
function isWrapped(layer: RouterLayer): boolean {
  const handle = layer.handle;
  if (typeof handle !== 'function') return true;
  const marks = handle as { __wrapped?: unknown; __original?: unknown };
  return marks.__wrapped !== undefined || marks.__original !== undefined;
}

function routerIsTraced(): boolean {
  const { start, end, asyncStart, asyncEnd, error } = ROUTER_TRACING;
  return start.hasSubscribers || end.hasSubscribers || asyncStart.hasSubscribers || asyncEnd.hasSubscribers || error.hasSubscribers;
}
