import { McpError } from '../protocol/mcp.error.js';

/**
 * JSON-RPC error codes of nest-mcp's access-control errors. They sit outside the JSON-RPC reserved
 * range (-32768…-32000) on purpose: MCP 2026-07-28 reserves -32020…-32099 for the spec and asks
 * that no new codes be put in the legacy implementation band -32000…-32019 (where SDKs already use
 * -32001 for "request timeout" / "session not found"); new application-level codes belong outside
 * the reserved range.
 * @publicApi
 */
export const McpAccessErrorCode = {
  /** The caller is not authenticated (a guard threw `UnauthorizedException`). */
  Unauthorized: -31001,
  /** The caller may not use this tool, prompt or resource (a guard denied, or `ForbiddenException`). */
  Forbidden: -31003,
  /**
   * The token could not be verified: the authorization server is unreachable, too slow or failing (as
   * HTTP 503, the code the store's and shutdown's 503 carry too: the server cannot take this work now, retry).
   */
  AuthorizationServerUnavailable: -31503,
} as const;

/** How long a client is told to wait before it sends its token again when the authorization server is out. */
const AUTHORIZATION_SERVER_RETRY_AFTER_MS = 5_000;

/**
 * A guard denied the call (or the handler threw `ForbiddenException`): answered as a JSON-RPC error
 * `-31003`, HTTP 200 (a per-call outcome, like an unknown tool), and the handler does not run.
 * @publicApi
 */
export class McpForbiddenError extends McpError {
  constructor(message = 'Forbidden', data?: unknown, httpStatus = 200) {
    super(McpAccessErrorCode.Forbidden, message, data, httpStatus);
  }
}

/** A guard threw `UnauthorizedException`: JSON-RPC error `-31001`, HTTP 200. @publicApi */
export class McpUnauthorizedError extends McpError {
  constructor(message = 'Unauthorized', data?: unknown, httpStatus = 200) {
    super(McpAccessErrorCode.Unauthorized, message, data, httpStatus);
  }
}

/**
 * The verified token lacks scopes a handler needs (`@McpScopes()`): JSON-RPC error `-31003` with
 * `data.requiredScopes`. Over HTTP with auth configured it is answered 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"`, so
 * clients can step up their authorization (MCP authorization spec, "Scope challenge handling").
 * @publicApi
 */
export class McpInsufficientScopeError extends McpForbiddenError {
  constructor(readonly requiredScopes: string[], httpStatus = 403) {
    super(`Insufficient scope: this call needs the scope(s) ${requiredScopes.join(' ')}`, { requiredScopes }, httpStatus);
  }
}

/**
 * Thrown by a token verifier for a token it rejects; `description` becomes the
 * `error_description` of the `WWW-Authenticate` challenge. Any other error thrown by a verifier
 * (but `AuthorizationServerUnavailableError`) is also answered 401 `invalid_token`, with a generic description.
 * @publicApi
 */
export class InvalidTokenError extends Error {
  constructor(readonly description = 'The access token is invalid') {
    super(description);
    this.name = 'InvalidTokenError';
  }
}

/**
 * Thrown by a token verifier that cannot tell whether a token is good because the authorization server
 * (its introspection endpoint, metadata or keys) is unreachable, did not answer in time, failed (5xx) or
 * answered what cannot be read. The ready verifiers throw it; throw it from your own for the same case.
 * The server's trouble, not the token's: answered -31503 with HTTP 503 and `Retry-After`, never 401,
 * so a client keeps its token instead of sending its user to sign in at a server that is down. The
 * server logs `source` and `reason` (at most once per 10 s per source, with a count); the client sees neither.
 * @publicApi
 */
export class AuthorizationServerUnavailableError extends McpError {
  /**
   * @param source what could not be asked, as the log names it (few values: it keys the log's rate limit), e.g. the endpoint's URL
   * @param reason what went wrong, for the log: `HTTP 502`, `no answer within 5000 ms`
   */
  constructor(
    readonly source = 'The authorization server',
    readonly reason = '',
    readonly retryAfterMs = AUTHORIZATION_SERVER_RETRY_AFTER_MS,
  ) {
    super(
      McpAccessErrorCode.AuthorizationServerUnavailable,
      'Service Unavailable: the access token cannot be verified now (the authorization server is unreachable or failing); retry later',
      { retryAfterMs },
      503,
    );
  }
}
