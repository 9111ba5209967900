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
    // Another issuer's document (a host serving several) is not this one's: try the next place.
    if (metadata.issuer !== issuer) failures.push(`${candidate} names the issuer ${JSON.stringify(metadata.issuer)}`);
    else if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri)) failures.push(`${candidate} has no jwks_uri`);
    else return metadata.jwks_uri;
  }
  throw new Error(`No authorization server metadata for ${issuer} (${failures.join('; ')}); set jwksUri (mocapi.auth.jwks-uri)`);
}
