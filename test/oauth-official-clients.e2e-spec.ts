import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError as UnauthorizedErrorV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule } from '../lib/index.js';
import { InvoiceTools } from './src/nest-auth.fixture.js';
import { createHttpApp } from './support/http-adapter.js';
import { postMcp, rpc } from './support/mcp-http.js';
import { freePort } from './support/local-services.js';
import {
  HeadlessOAuthProvider,
  jwtClaims,
  metadataDocumentHost,
  recordingFetch,
  startAuthorizationServer,
  type AuthorizationServer,
  type Exchange,
  type MetadataDocumentHost,
} from './support/oauth-authorization-server.js';
import { until } from './support/waiting.js';

/**
 * The whole OAuth path, with nothing mocked: oidc-provider runs as its own process on loopback, the MCP
 * server checks its JWT access tokens with the ready verifier (`auth.jwt`: the issuer's JWKS, the resource as
 * audience), and the official clients sign in through their OAuth providers. The login approves by itself,
 * so the providers follow its redirects with fetch. Registration: dynamic (RFC 7591), and for the 2.x client
 * also a Client ID Metadata Document, served over https on loopback by the test (a self-signed certificate
 * the authorization server is told to trust).
 */
describe('OAuth end to end: a real authorization server and the official clients', () => {
  let as: AuthorizationServer;
  let documents: MetadataDocumentHost;
  let app: INestApplication;
  let url: string;
  let resource: string;

  beforeAll(async () => {
    documents = metadataDocumentHost();
    as = await startAuthorizationServer({ trustCertificate: documents.certificate });
    const port = await freePort();
    url = resource = `http://127.0.0.1:${port}/mcp`;
    const module = McpModule.forRoot({
      name: 'oauth-e2e',
      version: '1.0.0',
      auth: {
        // No cooldown: the rotation test signs with a new key right after the keys were fetched.
        jwt: { issuer: as.issuer, clockToleranceSeconds: 0, jwksCooldownSeconds: 0 },
        resourceMetadata: { resource, authorization_servers: [as.issuer], scopes_supported: ['invoices:read', 'invoices:write'] },
        requiredScopes: ['invoices:read'],
      },
    });
    const moduleRef = await Test.createTestingModule({ imports: [module], providers: [InvoiceTools] }).compile();
    app = createHttpApp(moduleRef, { logger: false });
    await app.listen(port, '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await as?.stop();
    await documents?.stop();
  });

  /** A 2026-07-28 client of the official SDK 2.x on `provider`, connected once it has a token. */
  async function connectV2(provider: HeadlessOAuthProvider, exchanges: Exchange[]): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const open = () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider as never, fetch: recordingFetch(exchanges) });
      const client = new Client({ name: 'oauth-e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      return { client, transport };
    };
    let connection = open();
    try {
      await connection.client.connect(connection.transport);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      // What a real client does when the browser comes back to its redirect URI.
      await connection.transport.finishAuth(provider.takeCallback());
      connection = open();
      await connection.client.connect(connection.transport);
    }
    return connection;
  }

  /** Runs `call`; when the client had to send the user to sign in again (step-up), finishes that and runs it once more. */
  async function afterSignIn<T>(finishAuth: () => Promise<void>, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) && !(error instanceof UnauthorizedErrorV1)) throw error;
      await finishAuth();
      return call();
    }
  }

  const path = (exchange: Exchange) => `${exchange.method} ${exchange.url.origin === new URL(url).origin ? 'mcp' : 'as'}${exchange.url.pathname} ${exchange.status}`;

  describe('SDK 2.x (2026-07-28)', () => {
    const provider = new HeadlessOAuthProvider('oauth-e2e-v2');
    const exchanges: Exchange[] = [];
    let client: Client;
    let transport: StreamableHTTPClientTransport;

    afterAll(async () => {
      await client?.close();
    });

    it('401 → resource metadata → authorization server metadata → registration → code with PKCE and the resource → token → calls succeed', async () => {
      ({ client, transport } = await connectV2(provider, exchanges));
      const flow = exchanges.map(path);
      const first401 = flow.findIndex((line) => line.startsWith('POST mcp/mcp 401'));
      expect(first401).toBe(0);
      expect(exchanges[0].wwwAuthenticate).toBe(`Bearer scope="invoices:read", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`);
      const at = (prefix: string) => flow.findIndex((line) => line.startsWith(prefix));
      expect(at('GET mcp/.well-known/oauth-protected-resource/mcp 200')).toBeGreaterThan(first401);
      expect(at('GET as/.well-known/oauth-authorization-server 200')).toBeGreaterThan(at('GET mcp/.well-known/oauth-protected-resource/mcp 200'));
      expect(at('POST as/reg 201')).toBeGreaterThan(at('GET as/.well-known/oauth-authorization-server 200'));
      expect(at('POST as/token 200')).toBeGreaterThan(at('POST as/reg 201'));
      expect(exchanges.find((exchange) => exchange.url.pathname === '/token')?.grantType).toBe('authorization_code');
      expect(flow.at(-1)).toMatch(/^POST mcp\/mcp 200/);

      const [request] = provider.authorizationRequests;
      expect(request.searchParams.get('code_challenge_method')).toBe('S256');
      expect(request.searchParams.get('resource')).toBe(resource);
      expect(request.searchParams.get('scope')?.split(' ')).toContain('invoices:read');
      expect(request.searchParams.get('client_id')).toBe(provider.registered?.client_id);

      const claims = jwtClaims(provider.saved!.access_token);
      expect(claims).toEqual(expect.objectContaining({ iss: as.issuer, aud: resource, sub: 'alice', client_id: provider.registered?.client_id }));

      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.structuredContent).toEqual(
        expect.objectContaining({ subject: 'alice', clientId: provider.registered?.client_id, scopes: expect.arrayContaining(['invoices:read']), sameAsContext: true }),
      );
      expect((whoami.structuredContent as { scopes: string[] }).scopes).not.toContain('invoices:write');
    });

    it('hideWhenDenied: the read-only token does not list pay-invoice; void-invoice stays listed to ask for a step-up', async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['whoami', 'list-invoices', 'void-invoice']));
      expect(names).not.toContain('pay-invoice');
    });

    it('a tool needing invoices:write answers 403 insufficient_scope naming it; the client re-authorizes with it and the call succeeds', async () => {
      const before = exchanges.length;
      const result = await afterSignIn(() => transport.finishAuth(provider.takeCallback()), () => client.callTool({ name: 'void-invoice', arguments: { id: 'inv-7' } }));
      expect(result.content).toEqual([{ type: 'text', text: 'voided inv-7' }]);
      const stepUp = exchanges.slice(before);
      const refused = stepUp.find((exchange) => exchange.status === 403);
      // The scope every request needs (invoices:read) comes along, so a new authorization keeps it.
      expect(refused?.wwwAuthenticate).toContain('error="insufficient_scope"');
      expect(refused?.wwwAuthenticate).toContain('scope="invoices:read invoices:write"');
      const again = provider.authorizationRequests.at(-1)!;
      expect(again.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['invoices:read', 'invoices:write']));
      expect(again.searchParams.get('resource')).toBe(resource);
      expect(jwtClaims(provider.saved!.access_token).scope).toEqual(expect.stringContaining('invoices:write'));
    });

    it('hideWhenDenied: the stepped-up token lists pay-invoice and may call it', async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('pay-invoice');
      const paid = await client.callTool({ name: 'pay-invoice', arguments: { id: 'inv-8' } });
      expect(paid.content).toEqual([{ type: 'text', text: 'paid inv-8' }]);
    });

    it('a Client ID Metadata Document: the client id is its https URL, nothing is registered, and the token names that client', async () => {
      const published = new HeadlessOAuthProvider('oauth-e2e-v2-cimd');
      published.clientMetadataUrl = await documents.publish('/clients/oauth-e2e-v2.json', (documentUrl) => published.metadataDocument(documentUrl));
      const seen: Exchange[] = [];
      const connection = await connectV2(published, seen);
      try {
        expect(seen.map(path).filter((line) => line.startsWith('POST as/reg'))).toEqual([]);
        expect(documents.fetched).toContain('/clients/oauth-e2e-v2.json'); // the server read the document
        expect(published.authorizationRequests[0].searchParams.get('client_id')).toBe(published.clientMetadataUrl);
        expect(jwtClaims(published.saved!.access_token)).toEqual(expect.objectContaining({ aud: resource, client_id: published.clientMetadataUrl }));
        const whoami = await connection.client.callTool({ name: 'whoami', arguments: {} });
        expect(whoami.structuredContent).toEqual(expect.objectContaining({ subject: 'alice', clientId: published.clientMetadataUrl }));
      } finally {
        await connection.client.close();
      }
    });

    it('an expired access token is refused 401; the client refreshes it with its refresh token and the call succeeds', async () => {
      // A sign-in whose token lives one second: the server's refusal of it is the event awaited, not a clock.
      const shortLived = new HeadlessOAuthProvider('oauth-e2e-v2-expiry');
      const seen: Exchange[] = [];
      await as.setAccessTokenTtl(1);
      const connection = await connectV2(shortLived, seen).finally(() => as.setAccessTokenTtl(300));
      try {
        const expired = shortLived.saved!.access_token;
        expect(shortLived.saved!.refresh_token).toEqual(expect.any(String));
        await until(async () => (await rawCall(expired)).status === 401, 'the server to refuse the one-second token');
        expect((await rawCall(expired)).headers.get('www-authenticate')).toContain('error_description="The access token has expired"');

        const before = seen.length;
        const result = await connection.client.callTool({ name: 'whoami', arguments: {} });
        expect(result.structuredContent).toEqual(expect.objectContaining({ subject: 'alice' }));
        const refresh = seen.slice(before);
        expect(refresh.map(path)[0]).toBe('POST mcp/mcp 401');
        expect(refresh.find((exchange) => exchange.url.pathname === '/token')).toEqual(expect.objectContaining({ status: 200, grantType: 'refresh_token' }));
        expect(shortLived.saved!.access_token).not.toBe(expired);
        expect(shortLived.authorizationRequests).toHaveLength(1); // refreshed, not signed in again
      } finally {
        await connection.client.close();
      }
    });
  });

  // SDK 1.x steps up by calling auth() with the challenge's scope, which refreshes when the client holds a
  // refresh token (same scope, so the retry is refused again: "403 after trying upscoping"). Registered without
  // the refresh_token grant, it authorizes anew, as step-up needs.
  describe('SDK 1.x (2025-11-25, initialize sessions)', () => {
    const provider = new HeadlessOAuthProvider('oauth-e2e-v1', { refreshTokens: false });
    const exchanges: Exchange[] = [];
    let client: ClientV1;
    let transport: TransportV1;

    const open = () => {
      transport = new TransportV1(new URL(url), { authProvider: provider as never, fetch: recordingFetch(exchanges) });
      client = new ClientV1({ name: 'oauth-e2e-v1', version: '1.0.0' });
    };

    afterAll(async () => {
      await client?.close();
    });

    it('401 on initialize → metadata → registration → code with PKCE and the resource → a session whose calls succeed', async () => {
      open();
      await expect(client.connect(transport)).rejects.toThrow(/Unauthorized/);
      await transport.finishAuth(provider.takeCallback().get('code')!);
      open();
      await client.connect(transport);
      expect(transport.sessionId).toEqual(expect.any(String));

      const flow = exchanges.map(path);
      expect(flow[0]).toBe('POST mcp/mcp 401');
      expect(flow).toEqual(expect.arrayContaining(['GET mcp/.well-known/oauth-protected-resource/mcp 200', 'POST as/reg 201', 'POST as/token 200']));
      const [request] = provider.authorizationRequests;
      expect(request.searchParams.get('code_challenge_method')).toBe('S256');
      expect(request.searchParams.get('resource')).toBe(resource);
      expect(jwtClaims(provider.saved!.access_token)).toEqual(expect.objectContaining({ iss: as.issuer, aud: resource, sub: 'alice' }));

      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      expect(whoami.structuredContent).toEqual(expect.objectContaining({ subject: 'alice', clientId: provider.registered?.client_id }));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('void-invoice');
      expect(names).not.toContain('pay-invoice');
    });

    it('step-up: 403 insufficient_scope naming invoices:write; the client re-authorizes and the call succeeds in its session', async () => {
      const before = exchanges.length;
      const result = await afterSignIn(
        () => transport.finishAuth(provider.takeCallback().get('code')!),
        () => client.callTool({ name: 'void-invoice', arguments: { id: 'inv-9' } }),
      );
      expect(result.content).toEqual([{ type: 'text', text: 'voided inv-9' }]);
      const refused = exchanges.slice(before).find((exchange) => exchange.status === 403);
      expect(refused?.wwwAuthenticate).toContain('error="insufficient_scope"');
      expect(refused?.wwwAuthenticate).toContain('scope="invoices:read invoices:write"');
      expect(provider.authorizationRequests).toHaveLength(2);
      expect(provider.authorizationRequests[1].searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['invoices:read', 'invoices:write']));
      expect(jwtClaims(provider.saved!.access_token).scope).toEqual(expect.stringContaining('invoices:write'));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('pay-invoice');
    });

    it('an expired access token is refused 401; a client holding a refresh token refreshes it and its session goes on', async () => {
      const refreshing = new HeadlessOAuthProvider('oauth-e2e-v1-expiry');
      const seen: Exchange[] = [];
      const connect = () => ({
        transport: new TransportV1(new URL(url), { authProvider: refreshing as never, fetch: recordingFetch(seen) }),
        client: new ClientV1({ name: 'oauth-e2e-v1', version: '1.0.0' }),
      });
      await as.setAccessTokenTtl(1);
      let connection = connect();
      try {
        await expect(connection.client.connect(connection.transport)).rejects.toThrow(/Unauthorized/);
        await connection.transport.finishAuth(refreshing.takeCallback().get('code')!);
      } finally {
        await as.setAccessTokenTtl(300);
      }
      connection = connect();
      await connection.client.connect(connection.transport);
      try {
        const expired = refreshing.saved!.access_token;
        await until(async () => (await rawCall(expired)).status === 401, 'the server to refuse the one-second token');
        const before = seen.length;
        const result = await connection.client.callTool({ name: 'whoami', arguments: {} });
        expect(result.structuredContent).toEqual(expect.objectContaining({ subject: 'alice' }));
        expect(seen.slice(before).map(path)[0]).toBe('POST mcp/mcp 401');
        expect(seen.slice(before).find((exchange) => exchange.url.pathname === '/token')).toEqual(expect.objectContaining({ status: 200, grantType: 'refresh_token' }));
        expect(refreshing.saved!.access_token).not.toBe(expired);
        expect(refreshing.authorizationRequests).toHaveLength(1);
      } finally {
        await connection.client.close();
      }
    });
  });

  /** A tools/call of whoami with `token`, as any client would send it. */
  function rawCall(token: string) {
    return postMcp(url, rpc('tools/call', { name: 'whoami', arguments: {} }), { headers: { authorization: `Bearer ${token}` }, skipSchema: true });
  }
});
