import type { IncomingMessage } from 'node:http';
import type { McpAuthInfo } from './mcp-auth.interfaces.js';

/** The HTTP request as the bearer guard leaves it: `auth` holds the verified token. @publicApi */
export type McpAuthenticatedRequest = IncomingMessage & { auth?: McpAuthInfo; body?: unknown };

/** Reads the verified token the bearer guard attached to an HTTP request (`req.auth`). @publicApi */
export function getMcpAuth(request: unknown): McpAuthInfo | undefined {
  const auth = (request as McpAuthenticatedRequest | undefined)?.auth;
  return auth && typeof auth === 'object' && typeof auth.token === 'string' ? auth : undefined;
}

/** Who is behind an HTTP request (the token's subject, else its client id): requestState and tasks are bound to it. @internal */
export function principalOf(request: unknown): string | undefined {
  const auth = getMcpAuth(request);
  return auth?.subject ?? auth?.clientId;
}

const SCOPE_CHALLENGE = Symbol('nest-mcp:scope-challenge');

/** Lets later guards challenge for more scopes on this request (set by the bearer guard). @internal */
export function setScopeChallenge(request: object, challenge: (scopes: string[]) => string): void {
  Object.defineProperty(request, SCOPE_CHALLENGE, { value: challenge, configurable: true });
}

/** How to challenge for more scopes on this request, when the module's bearer auth verified it. @internal */
export function scopeChallengeOf(request: unknown): ((scopes: string[]) => string) | undefined {
  return (request as { [SCOPE_CHALLENGE]?: (scopes: string[]) => string } | undefined)?.[SCOPE_CHALLENGE];
}
