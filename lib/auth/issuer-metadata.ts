/** How long the verifiers wait for the authorization server (metadata, keys, introspection) unless told otherwise. @internal */
export const AUTHORIZATION_SERVER_TIMEOUT_MS = 5_000;

/** A verifier's `timeoutSeconds` in whole milliseconds (jose's unit), at least 1; the default when not given. @internal */
export function authorizationServerTimeoutMs(owner: string, timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined) return AUTHORIZATION_SERVER_TIMEOUT_MS;
  if (typeof timeoutSeconds !== 'number' || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new Error(`${owner}: timeoutSeconds must be a positive number of seconds; got ${timeoutSeconds}`);
  }
  return Math.max(1, Math.round(timeoutSeconds * 1000));
}

/**
 * Why a request to the authorization server failed, for the log: no answer in time, or the error with
 * its cause (fetch says only "fetch failed"; the cause says "connect ECONNREFUSED").
 * @internal
 */
export function failureReason(error: unknown, timeoutMs: number): string {
  const { name, code, message, cause } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError' || code === 'ERR_JWKS_TIMEOUT') return `no answer within ${timeoutMs} ms`;
  const text = typeof message === 'string' ? message : String(error);
  // Duck-typed: the cause comes from Node's own realm; an AggregateError (several addresses) has only a code.
  const { message: detail, code: causeCode } = (cause ?? {}) as { message?: unknown; code?: unknown };
  const why = typeof detail === 'string' && detail !== '' ? detail : typeof causeCode === 'string' ? causeCode : undefined;
  return why === undefined ? text : `${text}: ${why}`;
}

/**
 * The `jwks_uri` of an issuer, from its metadata: RFC 8414 (`/.well-known/oauth-authorization-server`
 * inserted before the issuer's path), else OpenID Connect Discovery (`/.well-known/openid-configuration`
 * appended, as Keycloak and Auth0 serve it). The document must name the same issuer (RFC 8414 §3.3).
 * @internal
 */
export async function discoverJwksUri(issuer: string, timeoutMs = AUTHORIZATION_SERVER_TIMEOUT_MS): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
  const failures: string[] = [];
  for (const candidate of candidates) {
    const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      failures.push(`${candidate}: HTTP ${response.status}`);
      continue;
    }
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // Another issuer's document (a host serving several) is not this one's: try the next place.
    if (metadata.issuer !== issuer) failures.push(`${candidate} names the issuer ${JSON.stringify(metadata.issuer)}`);
    else if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri)) failures.push(`${candidate} has no jwks_uri`);
    else return metadata.jwks_uri;
  }
  throw new Error(`No authorization server metadata for ${issuer} (${failures.join('; ')}); set jwksUri (mocapi.auth.jwks-uri)`);
}
