export {
  AuthorizationServerUnavailableError,
  McpAccessErrorCode,
  McpForbiddenError,
  McpUnauthorizedError,
  McpInsufficientScopeError,
  InvalidTokenError,
} from './mcp-auth.errors.js';
export type {
  McpAuthInfo,
  McpAuthOptions,
  McpIntrospectionVerifierOptions,
  McpJwtVerifierOptions,
  McpProtectedResourceMetadata,
  McpTokenVerifier,
} from './mcp-auth.interfaces.js';
export { McpIntrospectionVerifier } from './introspection-verifier.js';
export { McpJwtVerifier } from './jwt-verifier.js';
export { getMcpAuth, type McpAuthenticatedRequest } from './mcp-auth-info.js';
export { McpAuth, McpScopes, McpScopesGuard, MCP_SCOPES_METADATA } from './mcp-scopes.js';
