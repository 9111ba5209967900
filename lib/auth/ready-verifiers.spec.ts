import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import { McpIntrospectionVerifier } from './introspection-verifier.js';
import { discoverJwksUri } from './issuer-metadata.js';
import { JOSE_MISSING, loadJose } from './jose-loader.js';
import { McpJwtVerifier } from './jwt-verifier.js';
import { AuthorizationServerUnavailableError } from './mcp-auth.errors.js';
import { authInfoFromClaims, timeClaimRefusal } from './token-claims.js';

const RESOURCE = 'https://api.example.test/mcp';

describe('authInfoFromClaims', () => {
  it('takes scopes from scope (a string) and scp (an array), the subject from sub, the client from client_id, else azp', () => {
    expect(authInfoFromClaims('t', { scope: 'a  b', scp: ['b', 'c'], sub: 'alice', azp: 'app', exp: 10 })).toEqual({
      token: 't',
      scopes: ['a', 'b', 'c'],
      subject: 'alice',
      clientId: 'app',
      expiresAt: 10,
      claims: { scope: 'a  b', scp: ['b', 'c'], sub: 'alice', azp: 'app', exp: 10 },
    });
    expect(authInfoFromClaims('t', { client_id: 'cli', azp: 'app', scp: 'x y' })).toEqual(expect.objectContaining({ clientId: 'cli', scopes: ['x', 'y'] }));
    expect(authInfoFromClaims('t', { scope: 42, sub: '' })).toEqual({ token: 't', scopes: [], claims: { scope: 42, sub: '' } });
  });
});

describe('timeClaimRefusal', () => {
  const now = 1_000_000_000_000;
  const at = (seconds: number) => now / 1000 + seconds;

  it('allows the tolerance either way on exp and nbf, and refuses past it', () => {
    expect(timeClaimRefusal({ exp: at(-3), nbf: at(3) }, 5, now)).toBeUndefined();
    expect(timeClaimRefusal({ exp: at(-5) }, 5, now)).toBe('The access token has expired');
    expect(timeClaimRefusal({ exp: at(-10) }, 5, now)).toBe('The access token has expired');
    expect(timeClaimRefusal({ nbf: at(5) }, 5, now)).toBeUndefined();
    expect(timeClaimRefusal({ nbf: at(10) }, 5, now)).toBe('The access token is not valid yet');
    expect(timeClaimRefusal({ exp: at(0) }, 0, now)).toBe('The access token has expired');
    expect(timeClaimRefusal({ exp: at(1), nbf: at(0) }, 0, now)).toBeUndefined();
  });

  it('refuses nothing for absent or non-numeric claims', () => {
    expect(timeClaimRefusal({}, 0, now)).toBeUndefined();
    expect(timeClaimRefusal({ exp: 'yesterday', nbf: null }, 0, now)).toBeUndefined();
  });
});

describe('McpJwtVerifier options', () => {
  it.each([
    [{ issuer: 'not a url', audience: RESOURCE }, /issuer must be/],
    [{ issuer: 'https://as.example.test' }, /an audience is required/],
    [{ issuer: 'https://as.example.test', audience: [] as string[] }, /an audience is required/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, algorithms: ['RS256', 'HS256'] }, /refused: HS256/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, algorithms: ['none'] }, /refused: none/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, algorithms: [] }, /an empty list/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, clockToleranceSeconds: -1 }, /clockToleranceSeconds must be/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, jwksUri: 'nope' }, /jwksUri must be a URL/],
    [{ issuer: 'https://as.example.test', audience: RESOURCE, timeoutSeconds: 0 }, /timeoutSeconds must be a positive number/],
  ])('refuses %j at construction', (options, message) => {
    expect(() => new McpJwtVerifier(options)).toThrow(message);
  });
});

describe('loadJose', () => {
  it('names the package to install when jose is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'jose'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadJose(() => Promise.reject(missing))).rejects.toThrow(JOSE_MISSING);
  });

  it('passes other failures on as they are', async () => {
    await expect(loadJose(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

/** A real introspection endpoint on loopback that counts what it is asked and answers as told. */
describe('McpIntrospectionVerifier', () => {
  let server: Server;
  let endpoint: string;
  const asked: Array<{ token: string | null; authorization: string | undefined }> = [];
  /** What the endpoint answers: an object or array as JSON, a string as it is. */
  let answer: (token: string) => Record<string, unknown> | unknown[] | string = () => ({ active: false });
  let status = 200;
  let hold: Promise<void> | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const token = new URLSearchParams(body).get('token');
        asked.push({ token, authorization: req.headers.authorization });
        await hold;
        const reply = answer(token ?? '');
        res.writeHead(status, { 'content-type': 'application/json' }).end(typeof reply === 'string' ? reply : JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const active = (claims: Record<string, unknown> = {}) => ({ active: true, aud: RESOURCE, sub: 'alice', client_id: 'app', scope: 'a b', exp: Math.floor(Date.now() / 1000) + 600, ...claims });
  const verifier = (options: Partial<ConstructorParameters<typeof McpIntrospectionVerifier>[0]> = {}) =>
    new McpIntrospectionVerifier({ endpoint, clientId: 'rs client', clientSecret: 's3cret:/', audience: RESOURCE, ...options });

  it('posts the token with the resource server credentials (form-encoded, then Basic) and maps the answer', async () => {
    answer = () => active();
    asked.length = 0;
    const auth = await verifier().verify('tok-1');
    expect(auth).toEqual(expect.objectContaining({ token: 'tok-1', subject: 'alice', clientId: 'app', scopes: ['a', 'b'] }));
    expect(asked).toEqual([{ token: 'tok-1', authorization: `Basic ${Buffer.from('rs+client:s3cret%3A%2F').toString('base64')}` }]);
  });

  it('reuses an answer within cacheTtlSeconds, and one introspection serves concurrent requests with one token', async () => {
    answer = () => active();
    asked.length = 0;
    const cached = verifier({ cacheTtlSeconds: 60 });
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const together = Promise.all([cached.verify('tok-2'), cached.verify('tok-2'), cached.verify('tok-2')]);
    release();
    hold = undefined;
    expect((await together).map((auth) => auth.token)).toEqual(['tok-2', 'tok-2', 'tok-2']);
    await cached.verify('tok-2');
    expect(asked.filter((entry) => entry.token === 'tok-2')).toHaveLength(1);
    await cached.verify('tok-3');
    expect(asked).toHaveLength(2);
  });

  it('asks every time with cacheTtlSeconds 0, and never reuses an answer past the token expiry', async () => {
    answer = () => active();
    asked.length = 0;
    const uncached = verifier({ cacheTtlSeconds: 0 });
    await uncached.verify('tok-4');
    await uncached.verify('tok-4');
    expect(asked).toHaveLength(2);
    answer = () => active({ exp: Math.floor(Date.now() / 1000) - 1 });
    const expiring = verifier({ cacheTtlSeconds: 60 });
    await expiring.verify('tok-5');
    await expiring.verify('tok-5');
    expect(asked).toHaveLength(4);
  });

  it.each([
    ['inactive', () => ({ active: false }), 'The access token is not active'],
    ['for another audience', () => active({ aud: ['https://other.example.test/mcp'] }), 'The access token was not issued for this resource'],
    ['without an audience', () => active({ aud: undefined }), 'The access token was not issued for this resource'],
    ['from another issuer', () => active({ iss: 'https://evil.example.test' }), 'The access token was issued by another issuer'],
  ])('refuses a token %s with InvalidTokenError', async (_label, reply, description) => {
    answer = reply;
    await expect(verifier({ issuer: 'https://as.example.test', cacheTtlSeconds: 0 }).verify('tok-x')).rejects.toEqual(expect.objectContaining({ name: 'InvalidTokenError', description }));
  });

  it('an endpoint failing is not the token: AuthorizationServerUnavailableError (503), and not cached', async () => {
    answer = () => ({ error: 'server_error' });
    status = 503;
    asked.length = 0;
    const failing = verifier({ cacheTtlSeconds: 60 });
    try {
      await expect(failing.verify('tok-6')).rejects.toEqual(
        expect.objectContaining({ name: 'AuthorizationServerUnavailableError', httpStatus: 503, source: `McpIntrospectionVerifier: ${endpoint}`, reason: 'HTTP 503' }),
      );
      status = 200;
      answer = () => active();
      await expect(failing.verify('tok-6')).resolves.toEqual(expect.objectContaining({ subject: 'alice' }));
      expect(asked).toHaveLength(2);
    } finally {
      status = 200;
    }
  });

  it.each([
    ['not JSON', () => '<html>Bad Gateway</html>', /JSON/],
    ['JSON that is not an object', () => ['active'], /not an introspection response/],
    ['an object without "active"', () => ({ sub: 'alice' }), /not an introspection response/],
    ['an "active" that is not a boolean', () => ({ active: 'true', aud: RESOURCE }), /not an introspection response/],
  ])('an answer that is %s says nothing about the token: AuthorizationServerUnavailableError', async (_label, reply, reason) => {
    answer = reply;
    const error = await verifier({ cacheTtlSeconds: 0 }).verify('tok-m').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AuthorizationServerUnavailableError);
    expect((error as AuthorizationServerUnavailableError).reason).toMatch(reason);
  });

  it.each([
    ['3 s past exp, with 5 s tolerance', { exp: -3 }, 5, undefined],
    ['10 s past exp, with 5 s tolerance', { exp: -10 }, 5, 'The access token has expired'],
    ['3 s past exp, with no tolerance', { exp: -3 }, 0, 'The access token has expired'],
    ['3 s before nbf, with 5 s tolerance', { nbf: 3 }, 5, undefined],
    ['10 s before nbf, with 5 s tolerance', { nbf: 10 }, 5, 'The access token is not valid yet'],
  ])('judges the exp and nbf of an active answer with the clock tolerance: %s', async (_label, offsets, clockToleranceSeconds, refusal) => {
    const now = Math.floor(Date.now() / 1000);
    const times = Object.fromEntries(Object.entries(offsets).map(([claim, offset]) => [claim, now + offset]));
    answer = () => active(times);
    const verifying = verifier({ cacheTtlSeconds: 60, clockToleranceSeconds }).verify('tok-t');
    if (refusal) await expect(verifying).rejects.toEqual(expect.objectContaining({ name: 'InvalidTokenError', description: refusal }));
    else await expect(verifying).resolves.toEqual(expect.objectContaining({ subject: 'alice' }));
  });

  it('keeps at most cacheSize answers, the oldest dropped first', async () => {
    answer = () => active();
    asked.length = 0;
    const small = verifier({ cacheTtlSeconds: 60, cacheSize: 2 });
    for (const token of ['k1', 'k2', 'k3', 'k3', 'k2', 'k1']) await small.verify(token);
    expect(asked.map((entry) => entry.token)).toEqual(['k1', 'k2', 'k3', 'k1']);
  });
});

describe('mocapi.auth.* settings', () => {
  const settings = (values: Record<string, string>, options = {}) => resolveMcpSettings(options, { get: (key: string) => values[key] });

  it('build the whole auth option with the JWT verifier from resource and issuer', () => {
    expect(
      settings({
        MOCAPI_AUTH_RESOURCE: RESOURCE,
        MOCAPI_AUTH_ISSUER: 'https://as.example.test/',
        MOCAPI_AUTH_ALGORITHMS: 'ES256, RS256',
        MOCAPI_AUTH_CLOCK_TOLERANCE: 'PT30S',
        MOCAPI_AUTH_JWKS_COOLDOWN: 'PT1M',
        MOCAPI_AUTH_SCOPES_SUPPORTED: 'a,b',
        MOCAPI_AUTH_REQUIRED_SCOPES: 'a',
      }).auth,
    ).toEqual({
      jwt: { issuer: 'https://as.example.test/', algorithms: ['ES256', 'RS256'], clockToleranceSeconds: 30, jwksCooldownSeconds: 60 },
      resourceMetadata: { resource: RESOURCE, authorization_servers: ['https://as.example.test/'], scopes_supported: ['a', 'b'] },
      requiredScopes: ['a'],
    });
  });

  it('choose introspection when its endpoint is set', () => {
    expect(
      settings({
        'mocapi.auth.resource': RESOURCE,
        'mocapi.auth.authorization-servers': 'https://as.example.test',
        'mocapi.auth.introspection-endpoint': 'https://as.example.test/introspect',
        'mocapi.auth.client-id': 'rs',
        'mocapi.auth.client-secret': 'secret',
        'mocapi.auth.introspection-cache-ttl': 'PT10S',
      }).auth,
    ).toEqual({
      introspection: { endpoint: 'https://as.example.test/introspect', clientId: 'rs', clientSecret: 'secret', cacheTtlSeconds: 10 },
      resourceMetadata: { resource: RESOURCE, authorization_servers: ['https://as.example.test'] },
    });
  });

  it('give both verifiers the clock tolerance and the authorization server timeout; allow-tokens-without-exp is the JWT verifier\'s', () => {
    const keys = { MOCAPI_AUTH_RESOURCE: RESOURCE, MOCAPI_AUTH_CLOCK_TOLERANCE: 'PT10S', MOCAPI_AUTH_AUTHORIZATION_SERVER_TIMEOUT: 'PT0.5S' };
    expect(settings({ ...keys, MOCAPI_AUTH_ISSUER: 'https://as.example.test', MOCAPI_AUTH_ALLOW_TOKENS_WITHOUT_EXP: 'true' }).auth?.jwt).toEqual({
      issuer: 'https://as.example.test',
      clockToleranceSeconds: 10,
      timeoutSeconds: 0.5,
      allowTokensWithoutExp: true,
    });
    expect(
      settings({ ...keys, 'mocapi.auth.introspection-endpoint': 'https://as.example.test/introspect', 'mocapi.auth.client-id': 'rs', 'mocapi.auth.client-secret': 's', 'mocapi.auth.authorization-servers': 'https://as.example.test' }).auth
        ?.introspection,
    ).toEqual({ endpoint: 'https://as.example.test/introspect', clientId: 'rs', clientSecret: 's', clockToleranceSeconds: 10, timeoutSeconds: 0.5 });
    const jwt = { MOCAPI_AUTH_RESOURCE: RESOURCE, MOCAPI_AUTH_ISSUER: 'https://as.example.test' };
    expect(() => settings({ ...jwt, MOCAPI_AUTH_ALLOW_TOKENS_WITHOUT_EXP: 'yes' })).toThrow('MOCAPI_AUTH_ALLOW_TOKENS_WITHOUT_EXP must be "true" or "false"; got "yes"');
    expect(() => settings({ ...jwt, MOCAPI_AUTH_AUTHORIZATION_SERVER_TIMEOUT: 'PT0S' })).toThrow('MOCAPI_AUTH_AUTHORIZATION_SERVER_TIMEOUT must be longer than zero; got "PT0S"');
  });

  it('fill the verifier of an auth option that names none, and leave one that names its own alone', () => {
    const resourceMetadata = { resource: RESOURCE, authorization_servers: ['https://as.example.test'] };
    expect(settings({ MOCAPI_AUTH_ISSUER: 'https://as.example.test' }, { auth: { resourceMetadata } }).auth).toEqual({ resourceMetadata, jwt: { issuer: 'https://as.example.test' } });
    const own = { resourceMetadata, jwt: { issuer: 'https://mine.example.test' } };
    expect(settings({ MOCAPI_AUTH_ISSUER: 'https://as.example.test' }, { auth: own }).auth).toBe(own);
  });

  it('are off without keys, and refuse half a configuration or a bad duration', () => {
    expect(settings({}).auth).toBeUndefined();
    expect(() => settings({ MOCAPI_AUTH_ISSUER: 'https://as.example.test' })).toThrow(/mocapi.auth.resource .* must be set/);
    expect(() => settings({ MOCAPI_AUTH_RESOURCE: RESOURCE })).toThrow(/set mocapi.auth.issuer/);
    expect(() => settings({ MOCAPI_AUTH_RESOURCE: RESOURCE, MOCAPI_AUTH_ISSUER: 'https://as.example.test', MOCAPI_AUTH_CLOCK_TOLERANCE: '30' })).toThrow(/^MOCAPI_AUTH_CLOCK_TOLERANCE: Invalid ISO-8601 duration/);
  });
});

/** Issuer metadata served by a real loopback server: which document names the keys. */
describe('discoverJwksUri', () => {
  let server: Server;
  let origin: string;
  const documents = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const document = documents.get(req.url ?? '');
      res.writeHead(document ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(document ?? { error: 'not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads RFC 8414 metadata, the well-known path inserted before the issuer path', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server/tenant/a', { issuer: `${origin}/tenant/a`, jwks_uri: `${origin}/keys/a` });
    await expect(discoverJwksUri(`${origin}/tenant/a`)).resolves.toBe(`${origin}/keys/a`);
  });

  it('falls back to OpenID discovery appended to the issuer (Keycloak realms), past a document of another issuer', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server/realms/acme', { issuer: `${origin}/realms/other`, jwks_uri: `${origin}/keys/other` });
    documents.set('/realms/acme/.well-known/openid-configuration', { issuer: `${origin}/realms/acme`, jwks_uri: `${origin}/realms/acme/certs` });
    await expect(discoverJwksUri(`${origin}/realms/acme`)).resolves.toBe(`${origin}/realms/acme/certs`);
  });

  it('says what it tried when no document names the issuer with keys', async () => {
    documents.clear();
    documents.set('/.well-known/oauth-authorization-server', { issuer: origin });
    await expect(discoverJwksUri(origin)).rejects.toThrow(/has no jwks_uri.*HTTP 404.*set jwksUri/);
  });
});
