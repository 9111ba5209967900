import { All, Controller, Inject, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import { McpAuthChallengeFilter, McpBearerAuthGuard } from './mcp-bearer-auth.guard.js';
import { nodeExchange } from './http-exchange.js';
import { McpHttpTransport, type HttpRequest } from './mcp-http.transport.js';
import { McpHttpEdge } from './http-edge.js';

/**
 * Makes the controller that serves the MCP endpoint. Each `McpModule.forRoot()` gets its own class,
 * so the path set from the resolved settings (before Nest maps routes) belongs to that module alone.
 * @internal
 */
export function createMcpController(): Type {
  @Controller()
  class McpController {
    constructor(
      @Inject(McpHttpTransport) private readonly transport: McpHttpTransport,
      @Inject(McpHttpEdge) private readonly edge: McpHttpEdge,
    ) {}

    /**
     * POST carries the messages. Every other method (GET, DELETE, PUT, PATCH, OPTIONS, …): DELETE may
     * end a 2025 session, the rest 405. CORS middleware, if any, answers preflights first. One route
     * for all methods, as Fastify refuses a second route (`@Post()` beside `@All()`) on the same path.
     */
    @All()
    async serve(@Req() req: unknown, @Res() res: unknown): Promise<void> {
      const exchange = nodeExchange<HttpRequest>(req, res);
      if (exchange.req.method === 'POST') {
        // On Express, the route this POST came by is the MCP route: later ones may skip the router (express-edge.ts).
        this.edge.expressShortcut.learn(exchange.req);
        return this.transport.handlePost(exchange.req, exchange.res);
      }
      await this.transport.handleOtherMethod(exchange.req, exchange.res);
    }
  }
  return McpController;
}

/**
 * Bearer-token auth of the endpoint, when `auth` is configured: refusals are answered 401 / 403 with
 * `WWW-Authenticate` by the filter, before the transport sees the request. Applied while providers
 * are made (the options are known then, also with `forRootAsync`), before Nest maps the routes, so
 * without `auth` the route has no guard to run per request. Instances, as Nest looks classes up
 * among the injectables it found when it scanned the controller, before this ran.
 * @internal
 */
export function requireBearerAuth(controller: Type, guard: McpBearerAuthGuard): void {
  UseGuards(guard)(controller);
  UseFilters(new McpAuthChallengeFilter())(controller);
}
