import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { McpModule } from '../lib/index.js';
import { MCP_SETTINGS } from '../lib/mcp.constants.js';
import {
  CONFIG_BAD_SECRET_ENV,
  CONFIG_BAD_TTL_ENV,
  CONFIG_FIXTURE_TOOL_NAMES,
  CONFIG_TEST_ENV,
  ConfigFixtureTools,
  ConfigMcpOptionsFactory,
} from './src/config-fixture.module.js';
import { environmentRestorer } from './support/environment.js';
import { callMcp, postMcp, rpc, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { assertResultResponse } from './support/wire-schema.js';

/* Every test restores the environment it found (ConfigModule copies what it loads into it). */
const restoreEnv = environmentRestorer();

let running: StartedApp | undefined;

afterEach(async () => {
  await running?.app.close();
  running = undefined;
  restoreEnv();
});

async function start(imports: Array<DynamicModule | Promise<DynamicModule>>, endpoint: string): Promise<StartedApp> {
  running = await startApp([...imports, { module: class ConfigFixtureToolsModule {}, providers: [ConfigFixtureTools] }], endpoint);
  return running;
}

const envConfig = (envFilePath = CONFIG_TEST_ENV) => ConfigModule.forRoot({ isGlobal: true, envFilePath });

async function toolPages(url: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const response = await callMcp(url, 'tools/list', cursor === undefined ? {} : { cursor });
    expect(response.status).toBe(200);
    assertResultResponse(response.body, 'ListToolsResult');
    pages.push(response.body.result.tools.map((tool: Json) => tool.name));
    cursor = response.body.result.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

async function discover(url: string): Promise<Json> {
  const response = await callMcp(url, 'server/discover');
  expect(response.status).toBe(200);
  assertResultResponse(response.body, 'DiscoverResult');
  return response.body.result;
}

describe('McpModule configuration', () => {
  describe('defaults (no options, no ConfigService)', () => {
    it('serves /mcp with page size 100, the default serverInfo, cache hints and a 5 minute round-trip TTL', async () => {
      const { url, app } = await start([McpModule.forRoot()], '/mcp');
      const result = await discover(url);
      expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'nest-mcp-server', version: '0.0.0' } });
      expect(result).not.toHaveProperty('instructions');
      expect(result.ttlMs).toBe(0);
      expect(result.cacheScope).toBe('private');
      expect(await toolPages(url)).toEqual([CONFIG_FIXTURE_TOOL_NAMES]);
      expect(app.get(MCP_SETTINGS, { strict: false }).mrtr).toEqual({ secret: undefined, ttl: 'PT5M', ttlMs: 300000, maxStateLength: 65536, maxInputResponses: 32, acceptFirstRoundWithoutState: false });
    });
  });

  describe('mocapi.* from a .env file through ConfigService', () => {
    it('takes endpoint, page size, serverInfo, instructions, cache and mrtr settings from MOCAPI_* variables', async () => {
      const { url, baseUrl, app } = await start([envConfig(), McpModule.forRoot()], '/env-mcp');
      expect(app.get(ConfigService).get('MOCAPI_ENDPOINT')).toBe('/env-mcp');
      const result = await discover(url);
      expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'env-server', version: '4.5.6' } });
      expect(result.instructions).toBe('Instructions from the env file.');
      expect(result.ttlMs).toBe(5000);
      expect(result.cacheScope).toBe('public');
      expect(await toolPages(url)).toEqual([['c1', 'c2'], ['c3', 'c4'], ['c5']]);
      const settings = app.get(MCP_SETTINGS, { strict: false });
      expect(settings.mrtr.ttl).toBe('PT2M');
      expect(settings.mrtr.ttlMs).toBe(120000);
      expect(settings.mrtr.secret).toBe(Buffer.alloc(32, 7).toString('base64'));
      const defaultPath = await postMcp(`${baseUrl}/mcp`, rpc('server/discover'), { skipSchema: true });
      expect(defaultPath.status).toBe(404);
    });

    it('explicit options win over config, config wins over defaults, key by key', async () => {
      const { url, baseUrl } = await start(
        [envConfig(), McpModule.forRoot({ endpoint: '/explicit', pageSize: 3, name: 'explicit-name', cache: { cacheScope: 'private' } })],
        '/explicit',
      );
      const result = await discover(url);
      // name from the option, version still from MOCAPI_SERVER_VERSION
      expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'explicit-name', version: '4.5.6' } });
      expect(result.cacheScope).toBe('private');
      expect(result.ttlMs).toBe(5000);
      expect(await toolPages(url)).toEqual([['c1', 'c2', 'c3'], ['c4', 'c5']]);
      const envPath = await postMcp(`${baseUrl}/env-mcp`, rpc('server/discover'), { skipSchema: true });
      expect(envPath.status).toBe(404);
    });

    it('an endpoint without a leading slash is normalised', async () => {
      const { url } = await start([envConfig(), McpModule.forRoot({ endpoint: 'no-slash' })], '/no-slash');
      await discover(url);
    });

    it('reads the dotted mocapi.* form from a config factory (load)', async () => {
      const { url } = await start(
        [
          ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ mocapi: { endpoint: '/loaded', 'page-size': 4, server: { name: 'loaded' } } })] }),
          McpModule.forRoot(),
        ],
        '/loaded',
      );
      const result = await discover(url);
      expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'loaded', version: '0.0.0' });
      expect(await toolPages(url)).toEqual([['c1', 'c2', 'c3', 'c4'], ['c5']]);
    });
  });

  describe('forRootAsync', () => {
    it('useFactory with imports and inject: ConfigService builds the options (async factory)', async () => {
      const { url } = await start(
        [
          envConfig(),
          McpModule.forRootAsync({
            imports: [ConfigModule],
            inject: [ConfigService],
            useFactory: async (config: ConfigService) => ({
              name: config.get<string>('APP_MCP_NAME'),
              version: '7.0.0',
              endpoint: '/async-mcp',
              pageSize: 1,
            }),
          }),
        ],
        '/async-mcp',
      );
      const result = await discover(url);
      expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'name-from-factory', version: '7.0.0' } });
      // options from the factory win; what it leaves out still comes from mocapi.* config
      expect(result.instructions).toBe('Instructions from the env file.');
      expect(await toolPages(url)).toEqual(CONFIG_FIXTURE_TOOL_NAMES.map((name) => [name]));
      const call = await callMcp(url, 'tools/call', { name: 'c1', arguments: { text: 'ok' } });
      assertResultResponse(call.body, 'CallToolResult');
      expect(call.body.result.content).toEqual([{ type: 'text', text: 'c1:ok' }]);
    });

    it('useClass: an options factory class with injected ConfigService', async () => {
      const { url } = await start([envConfig(), McpModule.forRootAsync({ imports: [ConfigModule], useClass: ConfigMcpOptionsFactory })], '/via-class');
      const result = await discover(url);
      expect(result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 'env-server', version: '4.5.6', title: 'Title from useClass' } });
      expect(await toolPages(url)).toEqual([['c1', 'c2', 'c3', 'c4'], ['c5']]);
    });
  });

  describe('invalid settings fail start-up with a clear message', () => {
    it('mocapi.mrtr.secret of the wrong length (from .env)', async () => {
      const error = await startupFailure([envConfig(CONFIG_BAD_SECRET_ENV), McpModule.forRoot()]);
      expect(error.message).toBe('MOCAPI_MRTR_SECRET must be a base64-encoded 256-bit key (32 bytes); got 9 bytes');
      expect(error.message).not.toContain('dG9vLXNob3J0');
    });

    it('mrtr.secret of the wrong length (explicit option)', async () => {
      const error = await startupFailure([McpModule.forRoot({ mrtr: { secret: Buffer.alloc(16).toString('base64') } })]);
      expect(error.message).toBe('McpModule option mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got 16 bytes');
    });

    it('mocapi.mrtr.secret that is not base64', async () => {
      const error = await startupFailure([McpModule.forRoot({ mrtr: { secret: 'not base64 at all!' } })]);
      expect(error.message).toBe('McpModule option mrtr.secret must be a base64-encoded 256-bit key (32 bytes); the value is not valid base64');
    });

    it('mocapi.mrtr.ttl that is not an ISO-8601 duration (from .env)', async () => {
      const error = await startupFailure([envConfig(CONFIG_BAD_TTL_ENV), McpModule.forRoot()]);
      expect(error.message).toMatch(/^MOCAPI_MRTR_TTL: Invalid ISO-8601 duration "forever"/);
      // One line: where in nest-mcp the value was found wrong is no help to the user.
      expect(error.stack).toBe(`McpConfigurationError: ${error.message}`);
    });

    it('mrtr.ttl in months (explicit option)', async () => {
      const error = await startupFailure([McpModule.forRoot({ mrtr: { ttl: 'P1M' } })]);
      expect(error.message).toMatch(/^McpModule option mrtr\.ttl: Invalid ISO-8601 duration "P1M": years and months have no fixed length/);
    });

    it('mocapi.page-size of 0 (from config)', async () => {
      const error = await startupFailure([
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ mocapi: { 'page-size': 0 } })] }),
        McpModule.forRoot(),
      ]);
      expect(error.message).toBe('mocapi.page-size must be a positive integer; got "0"');
    });

    it('mocapi.cache.scope other than public/private', async () => {
      const error = await startupFailure([
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ mocapi: { cache: { scope: 'shared' } } })] }),
        McpModule.forRoot(),
      ]);
      expect(error.message).toBe('mocapi.cache.scope must be "public" or "private"; got "shared"');
    });
  });
});
