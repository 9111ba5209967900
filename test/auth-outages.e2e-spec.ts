import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigModule } from '@nestjs/config';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type KeyObject } from 'jose';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpModule, type McpAuthOptions } from '../lib/index.js';
import { onFastify } from './support/http-adapter.js';
import { LogTranscript } from './support/log-transcript.js';
import { postMcp, rpc, startApp, type McpHttpResponse, type StartedApp } from './support/mcp-http.js';

const RESOURCE = 'http://127.0.0.1/mcp';
const ISSUER = 'http://127.0.0.1/issuer';
const UNAVAILABLE = 'Service Unavailable: the access token cannot be verified now (the authorization server is unreachable or failing); retry later';
/** The verifiers' wait for the authorization server in these apps: a server that never answers reaches it, and the test waits no longer. */
const TIMEOUT_SECONDS = 0.3;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on a loopback port; `handle` can be changed while it runs. */
class Loopback {
  handle: Handler;
  private readonly server: Server;

  private constructor(handle: Handler) {
    this.handle = handle;
    this.server = createServer((req, res) => this.handle(req, res));
  }

  static async start(handle: Handler): Promise<Loopback> {
    const loopback = new Loopback(handle);
    await new Promise<void>((resolve) => loopback.server.listen(0, '127.0.0.1', resolve));
    return loopback;
  }

  /** A URL whose port nobody listens on any more: a server that was there and stopped. */
  static async stopped(path: string): Promise<string> {
    const loopback = await Loopback.start(() => undefined);
    const url = loopback.url(path);
    await loopback.stop();
    return url;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    // A server that never answers holds its requests open: end them, or close() waits for them.
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const json = (status: number, body: unknown): Handler => (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
/** Reads the request and never answers: the verifier's timeout is what ends the wait. */
const never: Handler = (req) => req.resume();

/** A request with `token` as its bearer token. */
function callWith(url: string, token: string): Promise<McpHttpResponse> {
  return postMcp(url, rpc('tools/list', {}, { id: 'with-token' }), { headers: { authorization: `Bearer ${token}` }, skipSchema: true });
}

/** The answer to a token that could not be verified: 503, Retry-After, a JSON-RPC error with the id, no challenge. */
function expectUnavailable(response: McpHttpResponse): void {
  expect({ status: response.status, retryAfter: response.headers.get('retry-after'), challenge: response.headers.get('www-authenticate'), body: response.body }).toEqual({
    status: 503,
    retryAfter: '5',
    challenge: null,
    body: { jsonrpc: '2.0', id: 'with-token', error: { code: -31503, message: UNAVAILABLE, data: { retryAfterMs: 5000 } } },
  });
}

/** The answer to a refused token: 401 invalid_token with `description`. */
function expectInvalid(response: McpHttpResponse, description: string): void {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toContain(`error="invalid_token", error_description="${description}"`);
  expect(response.body.error).toEqual({ code: -31001, message: `Unauthorized: ${description}` });
}

describe(`an authorization server that is out is the server's trouble: 503, never 401 (e2e, ${onFastify ? 'Fastify' : 'Express'})`, () => {
  const log = new LogTranscript();
  let signingKey: KeyObject | CryptoKey;
  let keySet: unknown;
  const servers: Loopback[] = [];
  const apps: StartedApp[] = [];

  async function serve(handle: Handler): Promise<Loopback> {
    const server = await Loopback.start(handle);
    servers.push(server);
    return server;
  }

  async function appWith(auth: Omit<McpAuthOptions, 'resourceMetadata'>, config: Record<string, string> = {}): Promise<StartedApp> {
    const configModule = ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] });
    const started = await startApp([configModule, McpModule.forRoot({ auth: { ...auth, resourceMetadata: { resource: RESOURCE, authorization_servers: [ISSUER] } } })], '/mcp', [], log);
    apps.push(started);
    return started;
  }

  const introspection = (endpoint: string) => ({ introspection: { endpoint, clientId: 'rs', clientSecret: 'secret', cacheTtlSeconds: 0, timeoutSeconds: TIMEOUT_SECONDS } });
  const jwt = (jwksUri?: string, issuer = ISSUER) => ({ jwt: { issuer, ...(jwksUri && { jwksUri }), jwksCooldownSeconds: 0, timeoutSeconds: TIMEOUT_SECONDS } });

  /** A JWT signed with the key the JWKS servers publish, for this resource, with `claims` over the usual ones. */
  function signed(claims: JWTPayload = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: 'alice', exp: now + 300, ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(signingKey);
  }

  /** The WARN lines of the log about `source`. */
  const warnings = (source: string) => log.lines.filter((line) => line.level === 'WARN' && line.message?.includes(source));

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    signingKey = privateKey;
    keySet = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  });

  beforeEach(() => log.clear());

  afterAll(async () => {
    await Promise.all(apps.map((started) => started.app.close()));
    await Promise.all(servers.map((server) => server.stop()));
  });

  /** The ways an endpoint can be out, each a URL at a real loopback server (or a closed port) and what the log says of it. */
  const OUTAGES: Array<[string, (path: string) => Promise<string>, RegExp]> = [
    ['stopped (its port closed)', (path) => Loopback.stopped(path), /fetch failed: connect ECONNREFUSED/],
    ['never answering (past the timeout)', async (path) => (await serve(never)).url(path), /no answer within 300 ms/],
    ['failing with 500', async (path) => (await serve(json(500, { error: 'server_error' }))).url(path), /HTTP 500|Expected 200 OK/],
    ['answering what is not JSON', async (path) => (await serve(json(200, '<html>Bad Gateway</html>'))).url(path), /JSON/],
  ];

  describe.each(OUTAGES)('its endpoint %s', (_label, endpointAt, reason) => {
    it('introspection: every request is answered 503 with Retry-After, and the log says so once, with the reason', async () => {
      const endpoint = await endpointAt('/introspect');
      const { url } = await appWith(introspection(endpoint));
      // Different tokens, so that no two requests share one introspection.
      const responses = await Promise.all(['t1', 't2', 't3', 't4', 't5'].map((token) => callWith(url, token)));
      for (const response of responses) expectUnavailable(response);
      const lines = warnings(`McpIntrospectionVerifier: ${endpoint} is unavailable`);
      expect(lines).toHaveLength(1);
      expect(lines[0].message).toMatch(reason);
      expect(lines[0].message).toMatch(/requests with a bearer token are answered 503 \(-31503, Retry-After\) until it answers$/);
      expect(log.continuations).toEqual([]);
    });

    it('JWKS: a well-formed JWT is answered 503 with Retry-After, the log says so once; a malformed one is still 401', async () => {
      const jwksUri = await endpointAt('/jwks');
      const { url } = await appWith(jwt(jwksUri));
      const responses = await Promise.all([0, 1, 2, 3, 4].map(async (n) => callWith(url, await signed({ jti: `j${n}` }))));
      for (const response of responses) expectUnavailable(response);
      const lines = warnings(`McpJwtVerifier: the key set of ${ISSUER} at ${jwksUri} is unavailable`);
      expect(lines).toHaveLength(1);
      expect(lines[0].message).toMatch(reason);
      expect(log.continuations).toEqual([]);
      // A token that is not a JWT needs no keys to be refused.
      expectInvalid(await callWith(url, 'not-a-jwt'), 'The access token is not a valid JWT');
    });
  });

  it('JWKS: a key set that is not one (200 with {"keys": "none"}) → 503', async () => {
    const { url } = await appWith(jwt((await serve(json(200, { keys: 'none' }))).url('/jwks')));
    expectUnavailable(await callWith(url, await signed()));
    expect(warnings('McpJwtVerifier')).toHaveLength(1);
  });

  it('JWT without jwksUri: issuer metadata that cannot be fetched → 503, and the log names what was tried', async () => {
    const issuer = await Loopback.stopped('/realm');
    const { url } = await appWith(jwt(undefined, issuer));
    const response = await callWith(url, await signed({ iss: issuer }));
    expectUnavailable(response);
    expect(warnings(`McpJwtVerifier: the key set of ${issuer} is unavailable (fetch failed`)).toHaveLength(1);
  });

  it('nothing is remembered of an outage: once the endpoints answer, the same tokens are verified, and bad ones are 401 as before', async () => {
    const introspect = await serve(json(500, {}));
    const keys = await serve(json(503, {}));
    const opaque = await appWith(introspection(introspect.url('/introspect')));
    const jwks = await appWith(jwt(keys.url('/jwks')));
    const token = await signed();
    expectUnavailable(await callWith(opaque.url, 'good'));
    expectUnavailable(await callWith(jwks.url, token));

    introspect.handle = (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => json(200, new URLSearchParams(body).get('token') === 'good' ? { active: true, aud: RESOURCE, sub: 'alice' } : { active: false })(req, res));
    };
    keys.handle = json(200, keySet);
    expect((await callWith(opaque.url, 'good')).status).toBe(200);
    expect((await callWith(jwks.url, token)).status).toBe(200);
    expectInvalid(await callWith(opaque.url, 'revoked'), 'The access token is not active');
    expectInvalid(await callWith(jwks.url, await signed({ aud: 'http://127.0.0.1/other' })), 'The access token was not issued for this resource');
  });

  describe('JWT time claims (keys from a real JWKS server, the default 5 s clock tolerance)', () => {
    let url: string;
    let keysUrl: string;

    beforeAll(async () => {
      keysUrl = (await serve(json(200, keySet))).url('/jwks');
      ({ url } = await appWith(jwt(keysUrl)));
    });

    const now = () => Math.floor(Date.now() / 1000);

    it('a JWT without exp is refused (RFC 9068 requires it)', async () => {
      expectInvalid(await callWith(url, await signed({ exp: undefined })), 'The access token has no expiry time (exp)');
    });

    it('with mocapi.auth.allow-tokens-without-exp, a JWT without exp is accepted', async () => {
      const { url: lenient } = await appWith({}, { MOCAPI_AUTH_ISSUER: ISSUER, MOCAPI_AUTH_JWKS_URI: keysUrl, MOCAPI_AUTH_ALLOW_TOKENS_WITHOUT_EXP: 'true' });
      expect((await callWith(lenient, await signed({ exp: undefined }))).status).toBe(200);
      expectInvalid(await callWith(lenient, await signed({ exp: now() - 60 })), 'The access token has expired');
    });

    it.each([
      ['3 s past exp is accepted', () => ({ exp: now() - 3 }), undefined],
      ['10 s past exp is refused', () => ({ exp: now() - 10 }), 'The access token has expired'],
      ['3 s before nbf is accepted', () => ({ nbf: now() + 3 }), undefined],
      ['10 s before nbf is refused', () => ({ nbf: now() + 10 }), 'The access token is not valid yet'],
    ])('a JWT %s', async (_label, claims, refusal) => {
      const response = await callWith(url, await signed(claims()));
      if (refusal) expectInvalid(response, refusal);
      else expect(response.status).toBe(200);
    });
  });

  describe('introspection time claims (a real introspection endpoint, the default 5 s clock tolerance)', () => {
    let url: string;
    const answers = new Map<string, Record<string, unknown>>();

    beforeAll(async () => {
      const endpoint = await serve((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => json(200, answers.get(new URLSearchParams(body).get('token') ?? '') ?? { active: false })(req, res));
      });
      ({ url } = await appWith(introspection(endpoint.url('/introspect'))));
    });

    const now = () => Math.floor(Date.now() / 1000);

    it.each([
      ['3 s past exp is accepted', 'exp-3', () => ({ exp: now() - 3 }), undefined],
      ['10 s past exp is refused', 'exp-10', () => ({ exp: now() - 10 }), 'The access token has expired'],
      ['3 s before nbf is accepted', 'nbf-3', () => ({ nbf: now() + 3 }), undefined],
      ['10 s before nbf is refused', 'nbf-10', () => ({ nbf: now() + 10 }), 'The access token is not valid yet'],
    ])('an active token %s', async (_label, token, claims, refusal) => {
      answers.set(token, { active: true, aud: RESOURCE, sub: 'alice', ...claims() });
      const response = await callWith(url, token);
      if (refusal) expectInvalid(response, refusal);
      else expect(response.status).toBe(200);
    });
  });
});
