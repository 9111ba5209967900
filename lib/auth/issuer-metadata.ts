/** How long the verifiers wait for the authorization server (metadata, keys, introspection). @internal */
export const AUTHORIZATION_SERVER_TIMEOUT_MS = 5_000;

/**
 * The `jwks_uri` of an issuer, from its metadata: RFC 8414 (`/.well-known/oauth-authorization-server`
 * inserted before the issuer's path), else OpenID Connect Discovery (`/.well-known/openid-configuration`
 * appended, as Keycloak and Auth0 serve it). The document must name the same issuer (RFC 8414 §3.3).
 * @internal
 */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [`${url.origin}/.well-known/oauth-authorization-server${path}`, `${url.origin}${path}/.well-known/openid-configuration`];
  const failures: string[] = [];
  for (const candidate of candidates) {
    const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(AUTHORIZATION_SERVER_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      failures.push(`${candidate}: HTTP ${response.status}`);
      continue;
    }
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer !== issuer) throw new Error(`${candidate} names the issuer ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(issuer)}`);
    if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri)) throw new Error(`${candidate} has no jwks_uri`);
    return metadata.jwks_uri;
  }
  throw new Error(`No authorization server metadata for ${issuer} (${failures.join('; ')}); set jwksUri (mocapi.auth.jwks-uri)`);
}
