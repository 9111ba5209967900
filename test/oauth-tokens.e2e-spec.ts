import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import { McpModule } from '../lib/index.js';
import { InvoiceTools } from './src/nest-auth.fixture.js';
import { createHttpApp } from './support/http-adapter.js';
import { freePort } from './support/local-services.js';
import { postMcp, rpc } from './support/mcp-http.js';
import { RESOURCE_SERVER_CLIENT, startAuthorizationServer, type AuthorizationServer } from './support/oauth-authorization-server.js';

/** An app on a port of its own whose module is configured as `.env` would: `MOCAPI_AUTH_*` keys only. */
async function startConfiguredApp(keys: (resource: string) => Record<string, string>, endpoint = '/mcp') {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}${endpoint}`;
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ MOCAPI_ENDPOINT: endpoint, ...keys(resource) })] }), McpModule.forRoot({})],
    providers: [InvoiceTools],
  }).compile();
  const app = createHttpApp(moduleRef, { logger: false });
  await app.listen(port, '127.0.0.1');
  return { app, resource, url: resource };
}

/** A tools/call of whoami with `token`; resolves to the status, the challenge and the body. */
async function callWith(url: string, token: string) {
  const response = await postMcp(url, rpc('tools/call', { name: 'whoami', arguments: {} }), { headers: { authorization: `Bearer ${token}` }, skipSchema: true });
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '', body: response.body };
}

/**
 * The ready verifiers against tokens of a real authorization server (oidc-provider, its own process), and
 * against tokens made to fool them with its own signing key: each refusal is a 401 `invalid_token` that says
 * why, never a crash. Both apps are configured from `mocapi.auth.*` keys alone, as from a `.env` file.
 */
describe('the ready token verifiers against a real authorization server', () => {
  let as: AuthorizationServer;

  beforeAll(async () => {
    as = await startAuthorizationServer();
  });

  afterAll(async () => {
    await as?.stop();
  });

  /** The keys of an app that verifies opaque tokens by asking this server, with no cache. */
  const introspectionKeys = (resource: string) => ({
    MOCAPI_AUTH_RESOURCE: resource,
    MOCAPI_AUTH_AUTHORIZATION_SERVERS: as.issuer,
    MOCAPI_AUTH_INTROSPECTION_ENDPOINT: `${as.issuer}/token/introspection`,
    MOCAPI_AUTH_CLIENT_ID: RESOURCE_SERVER_CLIENT.id,
    MOCAPI_AUTH_CLIENT_SECRET: RESOURCE_SERVER_CLIENT.secret,
    MOCAPI_AUTH_INTROSPECTION_CACHE_TTL: 'PT0S',
  });

  describe('JWT access tokens (mocapi.auth.issuer: keys from its metadata)', () => {
    let app: INestApplication;
    let url: string;
    let resource: string;

    beforeAll(async () => {
      ({ app, url, resource } = await startConfiguredApp((resource) => ({
        MOCAPI_AUTH_RESOURCE: resource,
        MOCAPI_AUTH_ISSUER: as.issuer,
        MOCAPI_AUTH_SCOPES_SUPPORTED: 'invoices:read,invoices:write',
        MOCAPI_AUTH_CLOCK_TOLERANCE: 'PT0S',
        MOCAPI_AUTH_JWKS_COOLDOWN: 'PT0S',
      })));
    });

    afterAll(async () => {
      await app?.close();
    });

    /** A token signed with the authorization server's own current key, with `claims` over the usual ones. */
    async function forged(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
      const [jwk] = await as.signingKeys();
      const key = await importJWK(jwk, 'RS256');
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: as.issuer, aud: resource, sub: 'mallory', client_id: 'forger', scope: 'invoices:read invoices:write', iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid, ...header })
        .sign(key);
    }

    const refusal = (description: string) => expect.stringContaining(`error="invalid_token", error_description="${description}"`);

    it('a token the server issued for this resource is accepted: subject, client and scopes come from its claims', async () => {
      const token = await as.clientCredentialsToken(resource, 'invoices:read');
      const response = await callWith(url, token);
      expect(response.status).toBe(200);
      expect(response.body.result.structuredContent).toEqual(expect.objectContaining({ subject: RESOURCE_SERVER_CLIENT.id, clientId: RESOURCE_SERVER_CLIENT.id, scopes: ['invoices:read'] }));
    });

    it('the control: a token signed the way the forgeries are, with nothing wrong, is accepted', async () => {
      expect((await callWith(url, await forged({}))).status).toBe(200);
    });

    it.each([
      ['issued for another resource (by the server itself)', async () => as.clientCredentialsToken('http://127.0.0.1:9/other', 'invoices:read'), 'The access token was not issued for this resource'],
      ['with another audience', async () => forged({ aud: 'https://other.example/mcp' }), 'The access token was not issued for this resource'],
      ['from another issuer', async () => forged({ iss: 'http://127.0.0.1:1' }), 'The access token was issued by another issuer'],
      ['expired', async () => forged({ exp: Math.floor(Date.now() / 1000) - 60 }), 'The access token has expired'],
      ['not valid yet', async () => forged({ nbf: Math.floor(Date.now() / 1000) + 600 }), 'The access token is not valid yet'],
      ['unsigned (alg: none)', async () => unsigned({ iss: as.issuer, aud: resource, sub: 'mallory', exp: Math.floor(Date.now() / 1000) + 300 }), 'The access token is signed with an algorithm that is not allowed'],
      ['signed with a key not in the JWKS', async () => strangerSigned({ iss: as.issuer, aud: resource, sub: 'mallory' }), 'The access token is signed with an unknown key'],
      ['HMAC-signed with the public key as the secret (algorithm confusion)', async () => hmacSigned({ iss: as.issuer, aud: resource, sub: 'mallory' }), 'The access token is signed with an algorithm that is not allowed'],
      ['with a tampered payload', async () => tampered(await forged({})), 'The access token signature is invalid'],
      ['not a JWT', async () => 'opaque-looking-token', 'The access token is not a valid JWT'],
    ])('a token %s → 401 invalid_token saying so', async (_label, token, description) => {
      const response = await callWith(url, await token());
      expect(response.status).toBe(401);
      expect(response.challenge).toEqual(refusal(description));
      expect(response.body.error.code).toBe(-31001);
    });

    it('key rotation: a token signed with the new key is accepted without a restart, and one signed with the old key still is', async () => {
      const old = await as.clientCredentialsToken(resource, 'invoices:read');
      expect((await callWith(url, old)).status).toBe(200); // the old key set is cached now
      const kid = await as.rotateKeys();
      const rotated = await as.clientCredentialsToken(resource, 'invoices:read');
      expect(JSON.parse(Buffer.from(rotated.split('.')[0], 'base64url').toString()).kid).toBe(kid);
      expect((await callWith(url, rotated)).status).toBe(200);
      expect((await callWith(url, old)).status).toBe(200);
    });
  });

  describe('opaque tokens by introspection (mocapi.auth.introspection-endpoint)', () => {
    let app: INestApplication;
    let url: string;
    let resource: string;

    beforeAll(async () => {
      // The authorization server issues opaque tokens for a resource whose path ends in /opaque.
      ({ app, url, resource } = await startConfiguredApp(introspectionKeys, '/opaque'));
    });

    afterAll(async () => {
      await app?.close();
    });

    it('an active opaque token for this resource is accepted, with its client and scopes (a client credentials token has no subject)', async () => {
      const token = await as.clientCredentialsToken(resource, 'invoices:read invoices:write');
      expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
      const response = await callWith(url, token);
      expect(response.status).toBe(200);
      expect(response.body.result.structuredContent).toEqual({ clientId: RESOURCE_SERVER_CLIENT.id, scopes: ['invoices:read', 'invoices:write'], sameAsContext: true, tokenSeen: true });
    });

    it('a token the server does not know → 401 invalid_token "not active"', async () => {
      const response = await callWith(url, 'no-such-token');
      expect(response.status).toBe(401);
      expect(response.challenge).toContain('error_description="The access token is not active"');
    });

    it('a token issued for another resource → 401 "not issued for this resource"', async () => {
      const other = await as.clientCredentialsToken('http://127.0.0.1:9/elsewhere/opaque', 'invoices:read');
      const response = await callWith(url, other);
      expect(response.status).toBe(401);
      expect(response.challenge).toContain('error_description="The access token was not issued for this resource"');
    });

    it('a revoked token is refused (no cache: PT0S)', async () => {
      const token = await as.clientCredentialsToken(resource, 'invoices:read');
      expect((await callWith(url, token)).status).toBe(200);
      const revoked = await fetch(`${as.issuer}/token/revocation`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER_CLIENT.id}:${RESOURCE_SERVER_CLIENT.secret}`).toString('base64')}` },
        body: new URLSearchParams({ token }),
      });
      expect(revoked.status).toBe(200);
      expect((await callWith(url, token)).status).toBe(401);
    });
  });

  // Last: it stops the authorization server.
  describe('the authorization server stopped', () => {
    let jwtApp: Awaited<ReturnType<typeof startConfiguredApp>>;
    let opaqueApp: Awaited<ReturnType<typeof startConfiguredApp>>;

    beforeAll(async () => {
      jwtApp = await startConfiguredApp((resource) => ({ MOCAPI_AUTH_RESOURCE: resource, MOCAPI_AUTH_ISSUER: as.issuer }));
      opaqueApp = await startConfiguredApp(introspectionKeys, '/opaque');
    });

    afterAll(async () => {
      await Promise.all([jwtApp?.app.close(), opaqueApp?.app.close()]);
    });

    it('opaque tokens → 503 with Retry-After (the token is not to blame), JWTs still verify with the keys fetched before', async () => {
      const opaque = await as.clientCredentialsToken(opaqueApp.resource, 'invoices:read');
      const signed = await as.clientCredentialsToken(jwtApp.resource, 'invoices:read');
      expect((await callWith(opaqueApp.url, opaque)).status).toBe(200);
      expect((await callWith(jwtApp.url, signed)).status).toBe(200);
      await as.stop();
      const refused = await postMcp(opaqueApp.url, rpc('tools/call', { name: 'whoami', arguments: {} }), { headers: { authorization: `Bearer ${opaque}` }, skipSchema: true });
      expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), challenge: refused.headers.get('www-authenticate'), code: refused.body.error.code }).toEqual({
        status: 503,
        retryAfter: '5',
        challenge: null,
        code: -31503,
      });
      expect((await callWith(jwtApp.url, signed)).status).toBe(200);
    });
  });
});

function unsigned(claims: JWTPayload): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`;
}

async function strangerSigned(claims: JWTPayload): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'not-published' }).setIssuedAt().setExpirationTime('5m').sign(privateKey);
}

/** The classic confusion: HS256 with the issuer's public key bytes as the shared secret. */
async function hmacSigned(claims: JWTPayload): Promise<string> {
  const { publicKey } = await generateKeyPair('RS256', { extractable: true });
  const secret = new TextEncoder().encode(JSON.stringify(await exportJWK(publicKey)));
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m').sign(secret);
}

function tampered(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  return [header, Buffer.from(JSON.stringify({ ...claims, scope: `${claims.scope} admin` })).toString('base64url'), signature].join('.');
}
