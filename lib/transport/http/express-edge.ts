import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeJsonRpcError } from './json-response.js';
import type { EndpointEdge } from './request-body.js';

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * On Express the endpoint's checks and body reading run as a middleware ahead of the application's
 * body parsers: Origin, Host, media type and size are judged before a byte of the body is read, and
 * `req.body` is set, so the application's parsers skip it.
 */
export function installExpressEdge(expressApp: unknown, edge: EndpointEdge): void {
  placeAheadOfBodyParsers(expressApp, (req, res, next) => {
    if (req.method !== 'POST' || !edge.isEndpoint(req.url ?? '')) return next();
    void edge.admit(req, res).then((read) => {
      if ('body' in read) {
        req.body = read.body;
        return next();
      }
      writeJsonRpcError(res, read.status, read.error);
    }, next);
  });
}

/**
 * Express runs middleware in `app.router.stack` order, and Nest registers its body parsers before
 * any module code runs, so a plain `use()` would come after them. Moving the new layer to the front
 * is the one place that relies on Express's router internals; it throws at startup if they change
 * (and the hostile-input e2e tests check that a foreign Origin is refused before the body is read).
 */
function placeAheadOfBodyParsers(expressApp: unknown, middleware: Middleware): void {
  const app = expressApp as { use(handler: Middleware): void; router?: { stack?: Array<{ handle?: unknown }> } };
  app.use(middleware);
  const stack = app.router?.stack;
  if (!Array.isArray(stack) || stack.at(-1)?.handle !== middleware) {
    throw new Error('McpModule: cannot place the MCP endpoint checks ahead of the body parsers (Express router internals changed)');
  }
  stack.unshift(stack.pop()!);
}
