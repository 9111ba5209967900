import { Catch, HttpException, Injectable, type ArgumentsHost, type CanActivate, type ExceptionFilter, type ExecutionContext } from '@nestjs/common';
import { setScopeChallenge, type McpAuthenticatedRequest } from '../../auth/mcp-auth-info.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { isPlainObject } from '../../protocol/json-value.js';
import type { McpError } from '../../protocol/mcp.error.js';
import { retryAfterHeader } from '../../store/store-limits.js';
import { nodeRequestOf, sendJson } from './http-exchange.js';
import { jsonRpcError } from './json-response.js';
import { OriginPolicy } from './origin.policy.js';
import { originRefusal } from './request-body.js';
import { headerValue } from './request-headers.js';

/** A refused bearer token (401 / 403 with a `WWW-Authenticate` challenge), or a token that cannot be verified now (503): answered by `McpAuthChallengeFilter`. */
class McpAuthChallengeException extends HttpException {
  constructor(
    readonly error: McpError,
    readonly challenge: string | undefined,
  ) {
    super(error.message, error.httpStatus);
  }
}

/**
 * Guards the MCP endpoint; attached only when `auth` is configured (`requireBearerAuth`). Reads
 * `Authorization: Bearer …` (of every POST, and of the GET or DELETE of a 2025 session), verifies it,
 * enforces `requiredScopes` and attaches the verified `McpAuthInfo` to the request as `req.auth`. Requests from a disallowed Origin pass on, so the
 * transport answers them 403 first (the Origin check comes before authorization).
 * @internal
 */
@Injectable()
export class McpBearerAuthGuard implements CanActivate {
  constructor(
    private readonly auth: McpAuthService,
    private readonly origins: OriginPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const handed = context.switchToHttp().getRequest<McpAuthenticatedRequest>();
    const request = nodeRequestOf<McpAuthenticatedRequest>(handed);
    // POST carries the messages; a GET or DELETE of a 2025 session must show who sends it too, as its
    // session is bound to the user who opened it. Any other method is answered 405 without a look at tokens.
    if (request.method !== 'POST' && headerValue(request.headers, 'mcp-session-id') === undefined) return true;
    if (originRefusal(request, this.origins)) return true;
    const check = await this.auth.check(request);
    if (!check.ok) throw new McpAuthChallengeException(check.error, check.challenge);
    // On Fastify, onto its request (what other guards and routes get) and the Node request under it (what the transport gets).
    for (const target of new Set([handed, request])) {
      target.auth = check.auth;
      setScopeChallenge(target, (scopes) => this.auth.insufficientScopeChallenge(scopes));
    }
    return true;
  }
}

/**
 * Writes a refused token's 401 / 403 with its `WWW-Authenticate` challenge, or a 503 with `Retry-After`,
 * and a JSON-RPC error body. @internal
 */
@Catch(McpAuthChallengeException)
export class McpAuthChallengeFilter implements ExceptionFilter {
  catch(exception: McpAuthChallengeException, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const posted = http.getRequest<McpAuthenticatedRequest>().body;
    const id = isPlainObject(posted) && (typeof posted.id === 'string' || typeof posted.id === 'number') ? posted.id : undefined;
    const status = exception.getStatus();
    const body = jsonRpcError(exception.error, id);
    const challenge = exception.challenge === undefined ? {} : { 'WWW-Authenticate': exception.challenge };
    // Retry-After from data.retryAfterMs, as the transport's own writer adds it: Fastify's reply would not.
    sendJson(http.getResponse(), status, body, { ...retryAfterHeader(status, body), ...challenge });
  }
}
