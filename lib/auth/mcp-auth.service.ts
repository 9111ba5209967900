import { Inject, Injectable, Logger, type OnModuleInit, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { logSafe } from '../protocol/log-text.js';
import type { McpError } from '../protocol/mcp.error.js';
import { RateLimitedWarnings } from '../protocol/rate-limited-warnings.js';
import { loadJose } from './jose-loader.js';
import { AuthorizationServerUnavailableError, InvalidTokenError, McpForbiddenError, McpUnauthorizedError } from './mcp-auth.errors.js';
import { McpIntrospectionVerifier } from './introspection-verifier.js';
import { McpJwtVerifier } from './jwt-verifier.js';
import type { McpAuthInfo, McpAuthOptions, McpProtectedResourceMetadata, McpTokenVerifier } from './mcp-auth.interfaces.js';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS, timeClaimRefusal } from './token-claims.js';

export const WELL_KNOWN_PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';

/**
 * The result of checking one request's bearer token: the caller, or the error to answer with (its
 * `httpStatus`: 401 or 403 with a `WWW-Authenticate` challenge, 503 without one). @internal
 */
export type McpTokenCheck = { ok: true; auth: McpAuthInfo } | { ok: false; error: McpError; challenge?: string };

/**
 * The resource-server side of MCP authorization: verifies bearer tokens with the configured
 * verifier, builds `WWW-Authenticate` challenges and the RFC 9728 metadata document.
 * @internal
 */
@Injectable()
export class McpAuthService implements OnModuleInit {
  private readonly logger = new Logger('McpModule');
  /** An authorization server that is out fails every request with a token: one line per 10 s, with a count. */
  private readonly outages = new RateLimitedWarnings(this.logger);
  private verifier?: McpTokenVerifier;
  /** Allowed past `expiresAt`: the ready verifier's tolerance (it judged `exp` with it already), else the default. */
  private clockToleranceSeconds = DEFAULT_CLOCK_TOLERANCE_SECONDS;
  readonly options?: McpAuthOptions;

  constructor(
    // Typed as the parts read here: the settings type names auth's own types, so auth/ importing it
    // (config/) would make a cycle. `auth` is the options' own, completed from `mocapi.auth.*`.
    @Inject(MCP_SETTINGS) private readonly settings: { endpoint: string; auth?: McpAuthOptions },
    private readonly moduleRef: ModuleRef,
  ) {
    this.options = settings.auth;
  }

  get enabled(): boolean {
    return this.options !== undefined;
  }

  async onModuleInit(): Promise<void> {
    const options = this.options;
    if (!options) return;
    const { resource, authorization_servers: servers, scopes_supported: scopes } = options.resourceMetadata ?? ({} as McpProtectedResourceMetadata);
    if (typeof resource !== 'string' || !URL.canParse(resource)) {
      throw new Error('McpModule auth: resourceMetadata.resource must be the absolute URL of the MCP endpoint');
    }
    if (!Array.isArray(servers) || servers.length === 0 || !servers.every((server) => URL.canParse(server))) {
      throw new Error('McpModule auth: resourceMetadata.authorization_servers must list at least one issuer URL');
    }
    if (scopes?.includes('offline_access')) {
      this.logger.warn('McpModule auth: scopes_supported should not list offline_access (MCP authorization spec)');
    }
    this.verifier = await this.resolveVerifier(options, resource);
  }

  /** The absolute URL of this resource's metadata document (advertised in challenges). */
  get metadataUrl(): string {
    const options = this.options!;
    if (options.resourceMetadataUrl) return options.resourceMetadataUrl;
    const endpoint = this.settings.endpoint === '/' ? '' : this.settings.endpoint;
    return `${new URL(options.resourceMetadata.resource).origin}${WELL_KNOWN_PROTECTED_RESOURCE}${endpoint}`;
  }

  /** The RFC 9728 document. */
  metadata(): McpProtectedResourceMetadata {
    const metadata = this.options!.resourceMetadata;
    return { ...metadata, bearer_methods_supported: metadata.bearer_methods_supported ?? ['header'] };
  }

  /** Checks the `Authorization` header of one request. */
  async check(request: IncomingMessage): Promise<McpTokenCheck> {
    const options = this.options!;
    const required = options.requiredScopes ?? [];
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i.exec(header) : null;
    if (!header) {
      return { ok: false, error: new McpUnauthorizedError('Unauthorized: a bearer token is required', undefined, 401), challenge: this.challenge({ scope: required }) };
    }
    if (!match) return this.invalid('The Authorization header must be "Bearer <token>"', required);
    const token = match[1];
    let auth: McpAuthInfo;
    try {
      auth = await this.verifier!.verify(token, request);
    } catch (error) {
      if (error instanceof InvalidTokenError) return this.invalid(error.description, required);
      if (error instanceof AuthorizationServerUnavailableError) return this.unavailable(error);
      this.logger.debug?.(`Token verification failed: ${logSafe(error instanceof Error ? error.message : error)}`);
      return this.invalid('The access token is invalid', required);
    }
    if (!auth || typeof auth !== 'object') return this.invalid('The access token is invalid', required);
    const expired = timeClaimRefusal({ exp: auth.expiresAt }, this.clockToleranceSeconds);
    if (expired) return this.invalid(expired, required);
    const normalized: McpAuthInfo = { ...auth, token: auth.token ?? token, scopes: auth.scopes ?? [], claims: auth.claims ?? {} };
    const missing = required.filter((scope) => !normalized.scopes.includes(scope));
    if (missing.length > 0) {
      return {
        ok: false,
        error: new McpForbiddenError(`Forbidden: the access token lacks the scope(s) ${missing.join(' ')}`, undefined, 403),
        challenge: this.insufficientScopeChallenge(required),
      };
    }
    return { ok: true, auth: normalized };
  }

  /**
   * `Bearer error="insufficient_scope", scope="…", resource_metadata="…"`. The scope names what every
   * request needs (`requiredScopes`) besides what this call needs, so that a client authorizing anew with
   * exactly that scope does not lose what it had (MCP authorization, "scope challenge handling").
   */
  insufficientScopeChallenge(scopes: string[]): string {
    const scope = [...new Set([...(this.options?.requiredScopes ?? []), ...scopes])];
    return this.challenge({ error: 'insufficient_scope', description: 'The access token lacks a required scope', scope });
  }

  private invalid(description: string, scope: string[]): McpTokenCheck {
    return {
      ok: false,
      error: new McpUnauthorizedError(`Unauthorized: ${description}`, undefined, 401),
      challenge: this.challenge({ error: 'invalid_token', description, scope }),
    };
  }

  /** 503 with `Retry-After`, no challenge: nothing the client could do with its token would help. */
  private unavailable(error: AuthorizationServerUnavailableError): McpTokenCheck {
    this.outages.warn(
      error.source,
      `${logSafe(error.source)} is unavailable${error.reason ? ` (${logSafe(error.reason)})` : ''}: requests with a bearer token are answered 503 (-31503, Retry-After) until it answers`,
    );
    return { ok: false, error };
  }

  private challenge(parts: { error?: string; description?: string; scope?: string[] }): string {
    const params: string[] = [];
    if (parts.error) params.push(`error="${quote(parts.error)}"`);
    if (parts.description) params.push(`error_description="${quote(parts.description)}"`);
    if (parts.scope?.length) params.push(`scope="${quote(parts.scope.join(' '))}"`);
    params.push(`resource_metadata="${quote(this.metadataUrl)}"`);
    return `Bearer ${params.join(', ')}`;
  }

  private async resolveVerifier(options: McpAuthOptions, resource: string): Promise<McpTokenVerifier> {
    const { verifier, jwt, introspection } = options;
    if ([verifier, jwt, introspection].filter((given) => given !== undefined).length !== 1) {
      throw new Error('McpModule auth: give one of verifier, jwt (mocapi.auth.issuer) or introspection (mocapi.auth.introspection-endpoint)');
    }
    // The ready verifiers take this resource as the audience (RFC 8707) unless told otherwise.
    this.clockToleranceSeconds = (jwt ?? introspection)?.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    if (jwt) {
      await loadJose(); // a missing jose fails start-up, not the first request
      return new McpJwtVerifier({ ...jwt, audience: jwt.audience ?? resource });
    }
    if (introspection) return new McpIntrospectionVerifier({ ...introspection, audience: introspection.audience ?? resource });
    return this.resolveGivenVerifier(verifier!);
  }

  private async resolveGivenVerifier(verifier: McpTokenVerifier | Type<McpTokenVerifier>): Promise<McpTokenVerifier> {
    if (typeof verifier !== 'function') {
      if (!verifier || typeof verifier.verify !== 'function') throw new Error('McpModule auth: verifier must have a verify(token) method');
      return verifier;
    }
    try {
      return this.moduleRef.get(verifier, { strict: false });
    } catch {
      return this.moduleRef.create(verifier);
    }
  }
}

/** RFC 7230 quoted-string content (error_description must not carry `"` or `\` unescaped). */
function quote(value: string): string {
  return value.replace(/[\\"]/g, '\\$&').replace(/[\r\n]/g, ' ');
}
