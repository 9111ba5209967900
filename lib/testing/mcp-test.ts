import { Module, type DynamicModule, type INestApplication, type LoggerService, type LogLevel, type ModuleMetadata, type NestApplicationOptions, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { McpSettings } from '../config/mcp-settings.js';
import { DEFAULT_ENDPOINT, MCP_SETTINGS } from '../mcp.constants.js';
import { McpTestClient, type McpTestClientOptions, type McpTestConnection } from './mcp-test-client.js';

/** What `@nestjs/testing`'s `TestingModule` offers that the kit uses (so that package stays optional). */
export interface TestingModuleLike {
  createNestApplication<T extends INestApplication = INestApplication>(options?: NestApplicationOptions): T;
}

/**
 * What the client connects to: a compiled `TestingModule` (overrides and all), an application
 * (listening or not), or a root module / module metadata that the kit boots itself.
 */
export type McpTestTarget = TestingModuleLike | INestApplication | Type<unknown> | DynamicModule | ModuleMetadata;

export interface McpTestOptions extends McpTestClientOptions {
  /** The logger of an application the kit creates; default: errors and warnings only. */
  logger?: LoggerService | LogLevel[] | false;
}

/**
 * The entry of `nest-mcp/testing`, in the manner of `@nestjs/testing`'s `Test`.
 *
 * ```ts
 * const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
 * const client = await McpTest.createClient(moduleRef);
 * const result = await client.callTool('hello', { name: 'Ada' });
 * await client.close();
 * ```
 * @publicApi
 */
export class McpTest {
  /**
   * Starts the app on an ephemeral loopback port (or uses the port it listens on) and returns a
   * client for its MCP endpoint. `close()` stops the app when the kit created it (from a
   * TestingModule or a module); an application you pass in stays yours to close.
   */
  static async createClient(target: McpTestTarget, options: McpTestOptions = {}): Promise<McpTestClient> {
    const { app, owned } = await applicationOf(target, options);
    try {
      const server = app.getHttpServer() as { listening?: boolean; address(): unknown };
      if (!server.listening) await app.listen(0, '127.0.0.1');
      const url = `${origin(server.address())}${options.path ?? endpointOf(app)}`;
      const connection: McpTestConnection = { app, url, release: async () => (owned ? app.close() : undefined) };
      const client = new McpTestClient(connection, options);
      if (client.era === 'legacy') await client.initialize();
      return client;
    } catch (error) {
      if (owned) await app.close().catch(() => undefined);
      throw error;
    }
  }
}

async function applicationOf(target: McpTestTarget, options: McpTestOptions): Promise<{ app: INestApplication; owned: boolean }> {
  const logger = options.logger ?? ['error', 'warn'];
  if (hasMethod(target, 'createNestApplication')) return { app: target.createNestApplication({ logger }), owned: true };
  if (hasMethod(target, 'getHttpServer')) return { app: target, owned: false };
  const metadata: ModuleMetadata = typeof target === 'function' || 'module' in target ? { imports: [target] } : target;
  @Module(metadata)
  class McpTestRootModule {}
  // abortOnError: false, or a module that fails to start would exit the test runner.
  return { app: await NestFactory.create(McpTestRootModule, { logger, abortOnError: false }), owned: true };
}

function hasMethod<K extends string>(target: McpTestTarget, name: K): target is Extract<McpTestTarget, Record<K, unknown>> {
  return typeof target === 'object' && target !== null && typeof (target as Record<string, unknown>)[name] === 'function';
}

/** The app's McpModule endpoint (the first one, if it has several: pass `path` for another). */
function endpointOf(app: INestApplication): string {
  try {
    return app.get<McpSettings>(MCP_SETTINGS, { strict: false }).endpoint;
  } catch {
    return DEFAULT_ENDPOINT;
  }
}

/** `http://host:port` of a listening server; wildcard addresses are reached on loopback. */
function origin(address: unknown): string {
  if (typeof address !== 'object' || address === null || !('port' in address)) throw new Error('The application does not listen on a TCP port');
  const { address: host, port, family } = address as { address: string; port: number; family: string | number };
  const ipv6 = family === 'IPv6' || family === 6;
  if (host === '0.0.0.0' || host === '::') return `http://127.0.0.1:${port}`;
  return ipv6 ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
