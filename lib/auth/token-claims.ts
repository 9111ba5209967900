import { InvalidTokenError } from './mcp-auth.errors.js';
import type { McpAuthInfo } from './mcp-auth.interfaces.js';

/**
 * What a token's claims say about the caller, the same for a verified JWT and an introspection answer:
 * scopes from `scope` (a space-separated string, RFC 8693 / 9068 / 7662) and `scp` (an array, as Entra and
 * Okta send it), the subject from `sub`, the client from `client_id`, else `azp`.
 * @internal
 */
export function authInfoFromClaims(token: string, claims: Record<string, unknown>): McpAuthInfo {
  const scopes = new Set([...words(claims.scope), ...(Array.isArray(claims.scp) ? claims.scp.filter(isText) : words(claims.scp))]);
  const clientId = text(claims.client_id) ?? text(claims.azp);
  const subject = text(claims.sub);
  const expiresAt = typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : undefined;
  return { token, scopes: [...scopes], claims, ...(subject && { subject }), ...(clientId && { clientId }), ...(expiresAt !== undefined && { expiresAt }) };
}

/** Clock skew allowed on `exp` and `nbf` when the verifier is not told otherwise, in seconds. @internal */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Why a token's time claims refuse it now, allowing `toleranceSeconds` of clock skew either way (the
 * rule jose applies to JWTs); undefined when they do not. Absent claims refuse nothing.
 * @internal
 */
export function timeClaimRefusal(claims: { exp?: unknown; nbf?: unknown }, toleranceSeconds: number, nowMs = Date.now()): string | undefined {
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.exp === 'number' && claims.exp <= now - toleranceSeconds) return 'The access token has expired';
  if (typeof claims.nbf === 'number' && claims.nbf > now + toleranceSeconds) return 'The access token is not valid yet';
  return undefined;
}

/** RFC 8707: the token must name this resource in `aud` (a string or an array). */
export function requireAudience(aud: unknown, audiences: readonly string[]): void {
  const named = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter(isText) : [];
  if (!named.some((value) => audiences.includes(value))) throw new InvalidTokenError('The access token was not issued for this resource');
}

/** One audience or several, as options and `.env` give them; at least one. */
export function audienceList(audience: string | string[] | undefined, owner: string): string[] {
  const list = (Array.isArray(audience) ? audience : audience === undefined ? [] : [audience]).map((value) => value.trim()).filter(Boolean);
  if (list.length === 0) throw new Error(`${owner}: an audience is required (RFC 8707: accept only tokens issued for this resource)`);
  return list;
}

/** A verifier's option in seconds, 0 or more: `value` as it is, or a start-up error naming the option. */
export function secondsOption(owner: string, key: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${owner}: ${key} must be a number of seconds, 0 or more; got ${value}`);
  return value;
}

function words(value: unknown): string[] {
  return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
