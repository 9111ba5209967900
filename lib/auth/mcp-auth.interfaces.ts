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
  /**
   * Expiry, in seconds since the epoch (`exp`). An expired token is refused even if the verifier accepts it
   * (allowing the clock tolerance of the ready verifier, else 5 s).
   */
  expiresAt?: number;
  /** Every claim the verifier wants handlers to see. */
  claims: Record<string, unknown>;
}

/**
 * Validates an access token (OAuth 2.1 §5.2), including its audience (RFC 8707): a server MUST only
 * accept tokens issued for itself. Throw (ideally `InvalidTokenError`) to refuse the token, and
 * `AuthorizationServerUnavailableError` when what it asks about the token does not answer (503, not 401).
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
  /**
   * The token verifier: an instance, or a class resolved from the module's injector (or constructed).
   * Leave it out to use a ready one: `jwt` (signed access tokens, checked against the issuer's JWKS) or
   * `introspection` (opaque tokens, RFC 7662). One of the three is required.
   */
  verifier?: McpTokenVerifier | Type<McpTokenVerifier>;
  /** The ready verifier of JWT access tokens (needs the optional package `jose`). Config: `mocapi.auth.issuer` and friends. */
  jwt?: McpJwtVerifierOptions;
  /** The ready verifier of opaque tokens by token introspection (RFC 7662). Config: `mocapi.auth.introspection-endpoint` and friends. */
  introspection?: McpIntrospectionVerifierOptions;
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

/**
 * `McpJwtVerifier`: JWT access tokens (RFC 9068) signed by the issuer's keys, checked with `jose`.
 * @publicApi
 */
export interface McpJwtVerifierOptions {
  /** The `iss` every token must carry (the authorization server's issuer identifier). Config: `mocapi.auth.issuer`. */
  issuer: string;
  /**
   * The `aud` a token must name (RFC 8707: a token issued for another resource is refused). Default:
   * `resourceMetadata.resource`. Config: `mocapi.auth.audience` (comma-separated: any of them).
   */
  audience?: string | string[];
  /**
   * Where the issuer publishes its signing keys. Default: the `jwks_uri` of the issuer's metadata
   * (`/.well-known/oauth-authorization-server`, else `/.well-known/openid-configuration`), read on first use.
   * Config: `mocapi.auth.jwks-uri`.
   */
  jwksUri?: string;
  /**
   * Signing algorithms accepted (`alg`). Default: the asymmetric ones (RS256/384/512, PS256/384/512,
   * ES256/384/512, EdDSA, Ed25519); `none` and HMAC are never accepted from a JWKS. Config: `mocapi.auth.algorithms`.
   */
  algorithms?: string[];
  /**
   * Clock skew allowed on `exp` and `nbf`, in seconds: a token is accepted until `exp` + this, and from
   * `nbf` − this. Config: `mocapi.auth.clock-tolerance` (ISO-8601). Default 5.
   */
  clockToleranceSeconds?: number;
  /**
   * Accept tokens without `exp` (they never expire). RFC 9068 requires `exp`, so by default a token
   * without it is refused (401 `invalid_token`); set this only for an issuer that omits it.
   * Config: `mocapi.auth.allow-tokens-without-exp` (`true`). Default false.
   */
  allowTokensWithoutExp?: boolean;
  /**
   * How long to wait for the issuer's metadata and keys, in seconds; past it the request is answered
   * 503 with `Retry-After` (the token is not to blame). Config: `mocapi.auth.authorization-server-timeout` (ISO-8601). Default 5.
   */
  timeoutSeconds?: number;
  /** How long fetched keys are used before they are fetched again, in seconds. Config: `mocapi.auth.jwks-cache-max-age` (ISO-8601). Default 600. */
  jwksCacheMaxAgeSeconds?: number;
  /**
   * A token signed by a key not in the cached set refetches the set (key rotation), at most once per
   * this many seconds, so tokens with made-up key ids cannot hammer the issuer. Config:
   * `mocapi.auth.jwks-cooldown` (ISO-8601). Default 30.
   */
  jwksCooldownSeconds?: number;
  /** The `typ` header a token must have (RFC 9068 says `at+jwt`; Keycloak and Entra send `JWT`). Default: any. */
  typ?: string;
}

/**
 * `McpIntrospectionVerifier`: opaque access tokens, asked of the authorization server's introspection
 * endpoint (RFC 7662) with the resource server's own client credentials, answers cached briefly.
 * @publicApi
 */
export interface McpIntrospectionVerifierOptions {
  /** The introspection endpoint's URL. Config: `mocapi.auth.introspection-endpoint`. */
  endpoint: string;
  /** This resource server's client id at the authorization server. Config: `mocapi.auth.client-id`. */
  clientId: string;
  /** Its secret, sent with HTTP Basic (`client_secret_basic`). Config: `mocapi.auth.client-secret`. */
  clientSecret: string;
  /**
   * The `aud` an active token must name (RFC 8707). Default: `resourceMetadata.resource`. Config:
   * `mocapi.auth.audience`.
   */
  audience?: string | string[];
  /** When set, the `iss` an active token must carry. Config: `mocapi.auth.issuer`. */
  issuer?: string;
  /**
   * How long an answer is reused, in seconds (never past the token's `exp`); a revoked token is
   * accepted at most this long. 0: ask every time. Config: `mocapi.auth.introspection-cache-ttl` (ISO-8601). Default 30.
   */
  cacheTtlSeconds?: number;
  /** The most answers cached (oldest dropped first). Config: `mocapi.auth.introspection-cache-size`. Default 10 000. */
  cacheSize?: number;
  /**
   * Clock skew allowed on the `exp` and `nbf` of an active token's answer, in seconds. Config:
   * `mocapi.auth.clock-tolerance` (ISO-8601). Default 5.
   */
  clockToleranceSeconds?: number;
  /**
   * How long to wait for the introspection endpoint, in seconds; past it the request is answered 503
   * with `Retry-After` (the token is not to blame). Config: `mocapi.auth.authorization-server-timeout` (ISO-8601). Default 5.
   */
  timeoutSeconds?: number;
}
