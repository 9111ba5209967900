import { applyDecorators, createParamDecorator, Injectable, SetMetadata, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { McpForbiddenError, McpInsufficientScopeError, McpUnauthorizedError } from './mcp-auth.errors.js';
import type { McpAuthInfo } from './mcp-auth.interfaces.js';
import { getMcpAuth, scopeChallengeOf } from './mcp-auth-info.js';

export const MCP_SCOPES_METADATA = 'mcp:scopes';

/** The verified token of the request an execution context serves (MCP handler or HTTP route). */
function authFromContext(context: ExecutionContext): McpAuthInfo | undefined {
  if (context.getType<string>() === MCP_CONTEXT_TYPE) {
    const invocation = context.getArgByIndex<{ httpRequest?: unknown } | undefined>(0);
    return getMcpAuth(invocation?.httpRequest);
  }
  if (context.getType() === 'http') return getMcpAuth(context.switchToHttp().getRequest());
  return undefined;
}

/**
 * Checks the scopes named by `@McpScopes()` against the verified bearer token. No token →
 * JSON-RPC `-31001`; a missing scope → `-31003` with `data.requiredScopes` (HTTP 403 with an
 * `insufficient_scope` challenge when the module's auth is configured, so clients can step up).
 * @publicApi
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndMerge<string[]>(MCP_SCOPES_METADATA, [context.getHandler(), context.getClass()]) ?? [];
    if (required.length === 0) return true;
    const auth = authFromContext(context);
    // A tools/list visibility probe only needs the answer, never a challenge on the list response.
    if (context.getArgByIndex<{ probe?: boolean } | undefined>(0)?.probe === true && context.getType<string>() === MCP_CONTEXT_TYPE) {
      return auth !== undefined && required.every((scope) => auth.scopes.includes(scope));
    }
    if (!auth) throw new McpUnauthorizedError('Unauthorized: this call needs a verified bearer token');
    const missing = required.filter((scope) => !auth.scopes.includes(scope));
    if (missing.length === 0) return true;
    // Step-up authorization: with the module's bearer auth, the challenge rides on the HTTP response.
    const challenge = scopeChallengeOf(httpRequestOf(context));
    const response = httpResponseOf(context);
    if (!challenge || !response || response.headersSent) {
      throw new McpForbiddenError(`Insufficient scope: this call needs the scope(s) ${required.join(' ')}`, { requiredScopes: required });
    }
    response.setHeader('WWW-Authenticate', challenge(required));
    throw new McpInsufficientScopeError(required, 403);
  }
}

/**
 * Requires OAuth scopes on an MCP handler (or all handlers of a class): applies `McpScopesGuard`.
 * Scopes of the class and the method add up.
 *
 * @example
 * ＠McpScopes('invoices:read')
 * ＠McpTool({ description: 'Lists invoices' })
 * listInvoices(＠McpAuth() auth: McpAuthInfo) { … }
 * @publicApi
 */
export function McpScopes(...scopes: string[]): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(MCP_SCOPES_METADATA, scopes), UseGuards(McpScopesGuard));
}

/**
 * Injects the verified `McpAuthInfo` (or `undefined` without auth). Works on MCP handlers and
 * on ordinary HTTP routes behind the bearer guard.
 * @publicApi
 */
export const McpAuth = createParamDecorator((_data: unknown, context: ExecutionContext) => authFromContext(context));

function httpRequestOf(context: ExecutionContext): unknown {
  if (context.getType() === 'http') return context.switchToHttp().getRequest();
  return context.getArgByIndex<{ httpRequest?: unknown } | undefined>(0)?.httpRequest;
}

function httpResponseOf(context: ExecutionContext): ServerResponse | undefined {
  if (context.getType() === 'http') {
    // Fastify hands routes its reply, which keeps Node's response as `raw`.
    const response = context.switchToHttp().getResponse<ServerResponse & { raw?: ServerResponse }>();
    return response.raw ?? response;
  }
  return (httpRequestOf(context) as { res?: ServerResponse } | undefined)?.res;
}
