import type { Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

/**
 * What a verified bearer token says about the caller. Attached to the HTTP request (`req.auth`)
 * by the module's bearer guard; read it with `ctx.auth`, `@McpAuth()` or
 * `McpExecutionContext.create(context).getAuth()`.
 * @publicApi
 */
export interface McpAuthInfo {
  /** The raw access token. Never forward it to upstream APIs (MCP authorization spec). */
  token: string;
  /** The OAuth client the token was issued to (`client_id` / `azp`). */
  clientId?: string;
  /** The resource owner (`sub`). */
  subject?: string;
  /** Granted scopes. */
  scopes: string[];
  /** Expiry, in seconds since the epoch (`exp`). An expired token is refused even if the verifier accepts it. */
  expiresAt?: number;
  /** Every claim the verifier wants handlers to see. */
  claims: Record<string, unknown>;
}

/**
 * Validates an access token (OAuth 2.1 §5.2), including its audience (RFC 8707): a server MUST only
 * accept tokens issued for itself. Throw (ideally `InvalidTokenError`) to refuse the token.
 * @publicApi
 */
export interface McpTokenVerifier {
  verify(token: string, request: IncomingMessage): McpAuthInfo | Promise<McpAuthInfo>;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), served at
 * `/.well-known/oauth-protected-resource` and `/.well-known/oauth-protected-resource<endpoint>`.
 * @publicApi
 */
export interface McpProtectedResourceMetadata {
  /** The resource identifier: the MCP endpoint's canonical absolute URL, e.g. `https://api.example.com/mcp`. */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for this resource (at least one). */
  authorization_servers: string[];
  /** Scopes clients may request (do not list `offline_access`). */
  scopes_supported?: string[];
  /** Defaults to `['header']`: tokens are accepted in the Authorization header only. */
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
  jwks_uri?: string;
  resource_signing_alg_values_supported?: string[];
  [field: string]: unknown;
}

/**
 * `McpModule.forRoot({ auth })`: the MCP endpoint becomes an OAuth 2.1 resource server. Every POST
 * must carry `Authorization: Bearer <token>`, which the verifier validates.
 * @publicApi
 */
export interface McpAuthOptions {
  /** The token verifier: an instance, or a class resolved from the module's injector (or constructed). */
  verifier: McpTokenVerifier | Type<McpTokenVerifier>;
  resourceMetadata: McpProtectedResourceMetadata;
  /** Scopes every request needs; missing ones → 403 `insufficient_scope`. */
  requiredScopes?: string[];
  /**
   * The absolute URL advertised in `WWW-Authenticate: Bearer resource_metadata="…"`. Default: the
   * origin of `resourceMetadata.resource` + `/.well-known/oauth-protected-resource` + the endpoint
   * path (a URL this module serves). Set it when a proxy or global prefix changes the public path.
   */
  resourceMetadataUrl?: string;
}
