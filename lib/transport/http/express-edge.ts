import type { IncomingMessage, ServerResponse } from 'node:http';
import * as internals from './express-internals.js';
import { writeJsonRpcError } from './json-response.js';
import type { AnsweringEdge } from './request-body.js';

type ExpressRequest = IncomingMessage & { body?: unknown; route?: object };
type Middleware = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

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
  // Nest registers its body parsers before any module code runs, so a plain `use()` would come after them
  // (the hostile-input e2e tests check that a foreign Origin is refused before the body is read).
  shortcut.attach(internals.useAheadOfAll(expressApp, middleware), middleware);
}

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
  private stack: internals.RouterLayer[] = [];
  private edge: unknown;
  private keptFor = -1;
  private readonly kept = new Map<string, object | undefined>();

  /** @param hooksIdle true while Nest's adapter hooks are unset, so its hooks middleware only calls `next()`. */
  constructor(private readonly hooksIdle: () => boolean) {}

  attach(stack: internals.RouterLayer[], edge: unknown): void {
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
    if (internals.routerIsTraced() || !this.hooksIdle()) return undefined;
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
    if (!first || !internals.layerRuns(first, this.edge) || internals.isWrapped(first)) return undefined;
    try {
      for (const layer of rest) {
        const matches = internals.layerMatches(layer, path);
        if (matches === undefined) return undefined;
        if (!matches) continue;
        const route = internals.layerRoute(layer);
        if (route) return this.ours.has(route) && !internals.isWrapped(layer) ? route : undefined;
        if (!internals.isNestBodyParser(layer) && !internals.isNestHooksLayer(layer)) return undefined;
      }
    } catch {
      // A path the router cannot decode: it answers that itself.
    }
    return undefined;
  }
}
