import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import type { McpSettings } from '../../config/mcp-settings.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { NestAdapter } from '../../invocation/nest-adapter.js';
import { ExpressShortcut, installExpressEdge } from './express-edge.js';
import { nestHooksIdle } from './express-internals.js';
import { asMcpError } from '../../protocol/internal-error.js';
import { writeJsonRpcError } from './json-response.js';
import { McpHttpTransport, type HttpRequest } from './mcp-http.transport.js';
import { prepareFastifyEdge } from './fastify-edge.js';
import { OriginPolicy } from './origin.policy.js';
import { admitJsonBody, deferContinue, type AnsweringEdge, type BodyLimits, type Refusal } from './request-body.js';
import { applyServerTimeouts } from './server-timeouts.js';

/**
 * Puts the endpoint's checks and body reading in front of the controller, on Express or Fastify
 * (chosen by `getType()`; another adapter gets neither, and its own body parsing), and sets the
 * server's request and header timeouts (`applyServerTimeouts`) and the deferred `100 Continue`.
 * @internal
 */
@Injectable()
export class McpHttpEdge implements OnModuleInit, AnsweringEdge {
  readonly limits: BodyLimits;
  /** On Express: when a POST may skip the rest of the router. */
  readonly expressShortcut: ExpressShortcut;
  private readonly logger = new Logger('McpModule');
  private fastifyRoutes = 0;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly adapterHost: HttpAdapterHost,
    private readonly origins: OriginPolicy,
    private readonly transport: McpHttpTransport,
    private readonly nest: NestAdapter,
    private readonly auth: McpAuthService,
  ) {
    this.expressShortcut = new ExpressShortcut(() => nestHooksIdle(adapterHost?.httpAdapter));
    const { maxBodyBytes, maxJsonDepth, bodyTimeoutMs } = settings.limits;
    this.limits = { maxBodyBytes, maxJsonDepth, bodyTimeoutMs };
    // Fastify fixes a route's options when Nest adds the route, before any module hook: its hooks go
    // in as soon as the adapter exists (at once with NestFactory, at createNestApplication in tests).
    adapterHost?.init$?.subscribe(() => {
      const adapter = adapterHost.httpAdapter;
      if (adapter?.getType() === 'fastify') prepareFastifyEdge(adapter.getInstance(), this, () => this.fastifyRoutes++);
    });
  }

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    const type = adapter?.getType();
    if (type !== 'express' && type !== 'fastify') return;
    const server = adapter.getHttpServer() as Server | undefined;
    if (server) {
      applyServerTimeouts(server, this.settings.limits, this.logger);
      deferContinue(server, (req) => this.isEndpoint(req.url ?? ''));
    }
    if (type === 'express') installExpressEdge(adapter.getInstance(), this, this.expressShortcut);
    else if (this.fastifyRoutes === 0) {
      // Without its hooks the route would take bodies with no Origin, size or header checks.
      throw new Error(`McpModule: the Fastify route of ${this.settings.endpoint} was added without the endpoint's checks`);
    }
  }

  /**
   * Matches as Express routes (case-insensitive, one optional trailing slash): a path the controller
   * serves but this check missed would reach it with no Origin, size or header checks.
   */
  isEndpoint(url: string): boolean {
    const path = url.split('?')[0].toLowerCase();
    const endpoint = this.settings.endpoint.toLowerCase();
    return path.endsWith(endpoint) || path.endsWith(`${endpoint}/`);
  }

  /**
   * What the controller does for a POST, when the edge answers it. `handlePost()` answers every client
   * mistake itself; a throw would be the module's own fault, which Nest's filter would have answered 500
   * on the controller's path: logged once with a reference and answered so here.
   */
  handlePost(req: HttpRequest, res: ServerResponse): void {
    try {
      this.transport.handlePost(req, res);
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'POST', undefined, error);
      if (res.headersSent) res.destroy();
      else writeJsonRpcError(res, mcpError.httpStatus, mcpError);
    }
  }

  /** Nest runs a guard or interceptor around every route when one is global, and the bearer guard around the MCP route with `auth`. */
  nestAddsNothing(): boolean {
    return !this.nest.nestPathOnly && !this.auth.enabled && this.nest.noGlobalGuardsOrInterceptors();
  }

  admit(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | Refusal> {
    return admitJsonBody(req, res, this.origins, this.limits, (refused) => {
      if (refused.status !== 408) return;
      this.logger.debug(`A client did not send its POST body within ${this.limits.bodyTimeoutMs} ms (mocapi.limits.body-timeout) from ${String(req.socket.remoteAddress)}; answered 408`);
    });
  }
}
