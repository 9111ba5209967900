import { All, Controller, HttpCode, Inject, Post, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { McpAuthChallengeFilter, McpBearerAuthGuard } from './mcp-bearer-auth.guard.js';
import { McpHttpTransport, type HttpRequest } from './mcp-http.transport.js';

/**
 * Makes the controller that serves the MCP endpoint. Each `McpModule.forRoot()` gets its own class,
 * so the path set from the resolved settings (before Nest maps routes) belongs to that module alone.
 * @internal
 */
export function createMcpController(): Type {
  // Bearer-token auth (a no-op unless `auth` is configured); refusals are answered 401 / 403 with
  // `WWW-Authenticate` by the filter, before the transport sees the request.
  @UseGuards(McpBearerAuthGuard)
  @UseFilters(McpAuthChallengeFilter)
  @Controller()
  class McpController {
    constructor(@Inject(McpHttpTransport) private readonly transport: McpHttpTransport) {}

    @Post()
    @HttpCode(200)
    post(@Req() req: HttpRequest, @Res() res: ServerResponse): void {
      this.transport.handlePost(req, res);
    }

    /** Every other method (GET, DELETE, PUT, PATCH, OPTIONS, …): DELETE may end a 2025 session, the rest 405. CORS middleware, if any, answers preflights first. */
    @All()
    async other(@Req() req: HttpRequest, @Res() res: ServerResponse): Promise<void> {
      await this.transport.handleOtherMethod(req, res);
    }
  }
  return McpController;
}
