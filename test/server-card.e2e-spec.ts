import 'reflect-metadata';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { afterEach, describe, expect, it } from '@jest/globals';
import { McpConfigurationError, McpModule, McpTool, type McpModuleOptions } from '../lib/index.js';
import { JoseTokenVerifier, makeKeys, METADATA_URL, RESOURCE, ISSUER } from './src/nest-auth.fixture.js';
import { environmentRestorer } from './support/environment.js';
import { LogTranscript } from './support/log-transcript.js';
import { callMcp, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { plainRequest as send, type PlainAnswer } from './support/plain-request.js';
import { assertServerCard } from './support/server-card-schema.js';
import { assertResultResponse } from './support/wire-schema.js';

@Injectable()
class WeatherTools {
  @McpTool({ name: 'forecast', description: 'Tomorrow, in one word' })
  forecast(): string {
    return 'sunny';
  }
}

const CARD_TYPE = 'application/mcp-server-card+json';
const DESCRIBED: McpModuleOptions = {
  name: 'weather',
  version: '2.1.0',
  title: 'Weather',
  serverCard: { namespace: 'com.example', description: 'Forecasts for any city' },
};

/** The card as a client fetches it: asking for its media type. */
async function fetchCard(url: string, headers: Record<string, string> = {}): Promise<{ answer: PlainAnswer; card: Json }> {
  const answer = await send(`${url}/server-card`, { Accept: CARD_TYPE, ...headers });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe(CARD_TYPE);
  const card = JSON.parse(answer.body);
  assertServerCard(card);
  return { answer, card };
}

/* Every test restores the environment it found (ConfigModule copies what it loads into it). */
const restoreEnv = environmentRestorer();

let started: StartedApp | undefined;
afterEach(async () => {
  await started?.app.close();
  started = undefined;
  restoreEnv();
});

describe('the Server Card (SEP-2127) at <endpoint>/server-card', () => {
  async function start(options: McpModuleOptions, extra: Array<DynamicModule | Promise<DynamicModule>> = [], logger: LogTranscript | false = false): Promise<StartedApp> {
    @Module({ imports: [...extra, McpModule.forRoot(options)], providers: [WeatherTools] })
    class CardTestModule {}
    started = await startApp([CardTestModule], options.endpoint ?? '/mcp', [], logger);
    return started;
  }

  it("is valid against the extension's schema and says what the running server says: serverInfo, the versions, the endpoint", async () => {
    const { url, baseUrl } = await start(DESCRIBED);
    const { card } = await fetchCard(url);
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'com.example/weather',
      version: '2.1.0',
      title: 'Weather',
      description: 'Forecasts for any city',
      remotes: [{ type: 'streamable-http', url: `${baseUrl}/mcp`, supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] }],
    });
    // What a client connecting by the card then sees.
    const discover = await callMcp(card.remotes[0].url, 'server/discover');
    assertResultResponse(discover.body, 'DiscoverResult');
    const serverInfo = discover.body.result._meta['io.modelcontextprotocol/serverInfo'];
    expect(card.name.split('/')[1]).toBe(serverInfo.name);
    expect(card.version).toBe(serverInfo.version);
    expect(card.title).toBe(serverInfo.title);
    for (const version of discover.body.result.supportedVersions) expect(card.remotes[0].supportedProtocolVersions).toContain(version);
    // It never lists primitives nor capabilities: those stay with the live protocol.
    expect(JSON.stringify(card)).not.toMatch(/forecast|capabilities|tools/);
  });

  it('lists the versions of the eras the endpoint serves', async () => {
    const { url } = await start({ ...DESCRIBED, protocol: 'modern' });
    expect((await fetchCard(url)).card.remotes[0].supportedProtocolVersions).toEqual(['2026-07-28']);
    await started!.app.close();
    const legacy = await start({ ...DESCRIBED, protocol: 'legacy' });
    expect((await fetchCard(legacy.url)).card.remotes[0].supportedProtocolVersions).toEqual(['2025-11-25', '2025-06-18', '2025-03-26']);
  });

  it('takes a server name that is reverse-DNS already, and the optional fields of the options', async () => {
    const { url } = await start({
      name: 'com.example/weather',
      serverCard: {
        description: 'Forecasts for any city',
        url: 'https://mcp.example.com/weather/mcp',
        websiteUrl: 'https://example.com/weather',
        repository: { url: 'https://github.com/example/weather', source: 'github' },
        icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
      },
    });
    const { card } = await fetchCard(url);
    expect(card).toMatchObject({
      name: 'com.example/weather',
      version: '0.0.0',
      websiteUrl: 'https://example.com/weather',
      repository: { url: 'https://github.com/example/weather', source: 'github' },
      icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
      remotes: [{ url: 'https://mcp.example.com/weather/mcp' }],
    });
    expect(card).not.toHaveProperty('title');
  });

  it('reads mocapi.server-card.* from the config, options first', async () => {
    const config = ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      load: [
        () => ({
          mocapi: {
            server: { name: 'weather', version: '3.0.0' },
            'server-card': { namespace: 'org.example', description: 'From the config', url: 'https://weather.example.org/mcp', 'website-url': 'https://weather.example.org' },
          },
        }),
      ],
    });
    const { url } = await start({ serverCard: { description: 'From the options' } }, [config]);
    const { card } = await fetchCard(url);
    expect(card).toMatchObject({
      name: 'org.example/weather',
      version: '3.0.0',
      description: 'From the options',
      websiteUrl: 'https://weather.example.org',
      remotes: [{ url: 'https://weather.example.org/mcp' }],
    });
  });

  it('reads the environment form (MOCAPI_SERVER_CARD_*) and turns off with MOCAPI_SERVER_CARD_ENABLED=false', async () => {
    process.env.MOCAPI_SERVER_CARD_NAMESPACE = 'net.example';
    process.env.MOCAPI_SERVER_CARD_DESCRIPTION = 'From the environment';
    const { url } = await start({ name: 'weather' });
    expect((await fetchCard(url)).card).toMatchObject({ name: 'net.example/weather', description: 'From the environment' });
    await started!.app.close();
    process.env.MOCAPI_SERVER_CARD_ENABLED = 'false';
    const off = await start({ name: 'weather' });
    expect((await send(`${off.url}/server-card`)).status).toBe(404);
  });

  it('is answered with an ETag, and 304 to a client whose copy is current', async () => {
    const { url } = await start(DESCRIBED);
    const { answer } = await fetchCard(url);
    const etag = String(answer.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    // Stable while nothing changes; HEAD has the same headers and no body.
    expect((await send(`${url}/server-card`)).headers.etag).toBe(etag);
    const head = await send(`${url}/server-card`, {}, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '', headers: { etag, 'content-type': CARD_TYPE } });

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const current = await send(`${url}/server-card`, { 'If-None-Match': ifNoneMatch });
      expect(current.status).toBe(304);
      expect(current.body).toBe('');
      expect(current.headers.etag).toBe(etag);
      expect(current.headers['cache-control']).toBe('public, max-age=3600');
      expect(current.headers['access-control-allow-origin']).toBe('*');
    }
    const stale = await send(`${url}/server-card`, { 'If-None-Match': '"an-older-card"' });
    expect(stale.status).toBe(200);
    expect(JSON.parse(stale.body).name).toBe('com.example/weather');
  });

  it('changes its ETag with its content: another version, another tag', async () => {
    const first = await start(DESCRIBED);
    const etag = (await fetchCard(first.url)).answer.headers.etag;
    await started!.app.close();
    const next = await start({ ...DESCRIBED, version: '2.2.0' });
    const fresh = await send(`${next.url}/server-card`, { 'If-None-Match': String(etag) });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.etag).not.toBe(etag);
  });

  it('answers a CORS preflight and any Origin, which the endpoint itself refuses', async () => {
    const { url } = await start(DESCRIBED);
    const preflight = await send(
      `${url}/server-card`,
      { Origin: 'https://client.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
      'OPTIONS',
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Content-Type, If-None-Match',
      'access-control-expose-headers': 'ETag',
    });
    const { answer } = await fetchCard(url, { Origin: 'https://client.example' });
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toBe('ETag');
    // The endpoint keeps its Origin rule.
    expect((await callMcp(url, 'server/discover', {}, { headers: { origin: 'https://client.example' }, skipSchema: true })).status).toBe(403);
  });

  it("names the endpoint by the request's Host, and leaves out a Host that is not one", async () => {
    const { url } = await start(DESCRIBED);
    expect((await fetchCard(url, { Host: 'MCP.example.com:8443' })).card.remotes).toEqual([
      expect.objectContaining({ url: 'http://mcp.example.com:8443/mcp' }),
    ]);
    const odd = await fetchCard(url, { Host: 'evil.example/phish?' });
    expect(odd.card).not.toHaveProperty('remotes');
  });

  it('keeps the allowedHosts rule of the endpoint', async () => {
    const { url } = await start({ ...DESCRIBED, allowedHosts: ['mcp.internal'] });
    expect((await send(`${url}/server-card`)).status).toBe(403);
    expect((await fetchCard(url, { Host: 'mcp.internal' })).card.remotes[0].url).toBe('http://mcp.internal/mcp');
  });

  it('follows the endpoint path', async () => {
    const { url } = await start({ ...DESCRIBED, endpoint: '/api/weather' });
    expect(url.endsWith('/api/weather')).toBe(true);
    expect((await fetchCard(url)).card.remotes[0].url).toBe(url);
    expect((await send(`${url.replace('/api/weather', '/mcp')}/server-card`)).status).toBe(404);
  });

  it('with auth: the endpoint is the protected resource, the card says a bearer token is needed, and the card itself needs none', async () => {
    await makeKeys();
    const { url } = await start({
      ...DESCRIBED,
      auth: { verifier: JoseTokenVerifier, resourceMetadata: { resource: RESOURCE, authorization_servers: [ISSUER] } },
    });
    expect((await callMcp(url, 'server/discover', {}, { skipSchema: true })).status).toBe(401);
    const { card } = await fetchCard(url);
    expect(card.remotes).toEqual([
      {
        type: 'streamable-http',
        url: RESOURCE,
        supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        headers: [{ name: 'Authorization', description: expect.stringContaining(METADATA_URL), isRequired: true, isSecret: true }],
      },
    ]);
  });

  it('is switched off by the option: 404, and the endpoint serves on', async () => {
    const { url } = await start({ ...DESCRIBED, serverCard: { ...DESCRIBED.serverCard, enabled: false } });
    expect((await send(`${url}/server-card`)).status).toBe(404);
    expect((await callMcp(url, 'tools/list')).status).toBe(200);
  });

  it('without a description or a reverse-DNS name: not served (404), and the start-up log says what it lacks', async () => {
    const log = new LogTranscript();
    const { url } = await start({ name: 'weather' }, [], log);
    expect((await send(`${url}/server-card`)).status).toBe(404);
    expect(log.entries('Server Card').map((line) => line.message)).toEqual([
      'Server Card not served at /mcp/server-card: it needs a namespace (mocapi.server-card.namespace, e.g. com.example) or a reverse-DNS mocapi.server.name (com.example/weather) and a description (mocapi.server-card.description) (mocapi.server-card.enabled=false says none is wanted)',
    ]);
    await started!.app.close();
    const described = new LogTranscript();
    await start(DESCRIBED, [], described);
    expect(described.entries('Server Card').map((line) => line.message)).toEqual(['Server Card at /mcp/server-card']);
  });

  it('stops start-up with one line when it is asked for and cannot be a valid card', async () => {
    const failure = async (options: McpModuleOptions) => {
      @Module({ imports: [McpModule.forRoot(options)] })
      class FailingCardModule {}
      const error = await startupFailure([FailingCardModule]);
      expect(error).toBeInstanceOf(McpConfigurationError);
      return error.message;
    };
    expect(await failure({ name: 'weather', serverCard: { enabled: true, namespace: 'com.example' } })).toBe(
      'McpModule option serverCard.enabled is true, but the card needs a description (mocapi.server-card.description)',
    );
    expect(await failure({ name: 'weather', serverCard: { aiCatalog: true, description: 'Forecasts' } })).toMatch(
      /^McpModule option serverCard.aiCatalog lists the Server Card, but the card needs a namespace/,
    );
    expect(await failure({ name: 'weather', serverCard: { namespace: 'com example', description: 'Forecasts' } })).toBe(
      'McpModule option serverCard.namespace must be a reverse-DNS namespace (letters, digits, ".", "-"), e.g. com.example; got "com example"',
    );
    expect(await failure({ ...DESCRIBED, serverCard: { namespace: 'com.example', description: 'x'.repeat(101) } })).toBe(
      'McpModule option serverCard.description must be 1 to 100 characters for the Server Card; got 101',
    );
    expect(await failure({ ...DESCRIBED, serverCard: { ...DESCRIBED.serverCard, url: 'mcp.example.com/mcp' } })).toBe(
      'McpModule option serverCard.url must be the endpoint\'s absolute http(s) URL; got "mcp.example.com/mcp"',
    );
    expect(await failure({ ...DESCRIBED, serverCard: { ...DESCRIBED.serverCard, enabled: false, aiCatalog: true } })).toBe(
      'McpModule option serverCard.aiCatalog lists the Server Card, which McpModule option serverCard.enabled turns off',
    );
  });
});

describe('the AI Catalog at /.well-known/ai-catalog.json', () => {
  it('is not served unless asked for: it speaks for the whole host', async () => {
    @Module({ imports: [McpModule.forRoot(DESCRIBED)] })
    class NoCatalogModule {}
    started = await startApp([NoCatalogModule]);
    expect((await send(`${started.baseUrl}/.well-known/ai-catalog.json`)).status).toBe(404);
  });

  it('lists the card by its URL when asked for, with the card\'s headers, ETag and 304', async () => {
    @Module({ imports: [McpModule.forRoot({ ...DESCRIBED, serverCard: { ...DESCRIBED.serverCard, aiCatalog: true } })] })
    class CatalogModule {}
    started = await startApp([CatalogModule]);
    const answer = await send(`${started.baseUrl}/.well-known/ai-catalog.json`, { Origin: 'https://client.example' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/ai-catalog+json');
    expect(answer.headers).toMatchObject({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=3600' });
    const catalog = JSON.parse(answer.body);
    expect(catalog).toEqual({
      specVersion: '1.0',
      entries: [{ identifier: 'urn:air:example.com:mcp:weather', type: CARD_TYPE, url: `${started.url}/server-card` }],
    });
    // The entry leads to the card.
    const card = JSON.parse((await send(catalog.entries[0].url)).body);
    assertServerCard(card);
    expect(card.name).toBe('com.example/weather');
    expect((await send(`${started.baseUrl}/.well-known/ai-catalog.json`, { 'If-None-Match': String(answer.headers.etag) })).status).toBe(304);
    const preflight = await send(`${started.baseUrl}/.well-known/ai-catalog.json`, { Origin: 'https://client.example', 'Access-Control-Request-Method': 'GET' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('lists each endpoint of the application that asks to be listed, once, and no other', async () => {
    const listed = (name: string, endpoint: string, aiCatalog: boolean): DynamicModule =>
      McpModule.forRoot({ name, endpoint, serverCard: { namespace: 'com.example', description: `The ${name} server`, aiCatalog } });
    @Module({ imports: [listed('weather', '/weather', true)] })
    class WeatherModule {}
    @Module({ imports: [listed('tides', '/tides', false)] })
    class TidesModule {}
    @Module({ imports: [listed('maps', '/maps', true)] })
    class MapsModule {}
    started = await startApp([WeatherModule, TidesModule, MapsModule], '/weather');
    const catalog = JSON.parse((await send(`${started.baseUrl}/.well-known/ai-catalog.json`)).body);
    expect(catalog.entries).toEqual([
      { identifier: 'urn:air:example.com:mcp:weather', type: CARD_TYPE, url: `${started.baseUrl}/weather/server-card` },
      { identifier: 'urn:air:example.com:mcp:maps', type: CARD_TYPE, url: `${started.baseUrl}/maps/server-card` },
    ]);
    // Each endpoint has its own card, listed or not.
    expect((await fetchCard(`${started.baseUrl}/tides`)).card.name).toBe('com.example/tides');
  });
});
