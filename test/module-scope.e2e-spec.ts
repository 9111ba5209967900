import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { McpModule, McpRegistry } from '../lib/index.js';
import { ConfigFixtureTools } from './src/config-fixture.module.js';
import { callMcp, startApp, startupFailure, type StartedApp } from './support/mcp-http.js';
import { assertResultResponse } from './support/wire-schema.js';

/** A feature module's service that adds a tool at start-up, through the injected registry. */
@Injectable()
class FeatureTools implements OnModuleInit {
  constructor(private readonly registry: McpRegistry) {}

  onModuleInit(): void {
    this.registry.addTool({ name: 'feature-ping', description: 'Added at run time by a feature module' }, () => 'pong from the feature');
  }
}

/** A feature module that imports nothing MCP: the registry is global once the root imports `forRoot()`. */
@Module({ providers: [FeatureTools] })
class FeatureModule {}

/** The feature module one level further down. */
@Module({ imports: [FeatureModule] })
class OuterModule {}

const toolsModule = { module: class ToolsModule {}, providers: [ConfigFixtureTools] };

let running: StartedApp | undefined;

afterEach(async () => {
  await running?.app.close();
  running = undefined;
});

describe('McpModule scope', () => {
  it.each([
    ['a feature module', FeatureModule],
    ['a module imported by a feature module', OuterModule],
  ])('%s injects McpRegistry (importing nothing) and adds a tool the endpoint serves', async (_name, feature) => {
    running = await startApp([McpModule.forRoot(), feature, toolsModule]);
    const response = await callMcp(running.url, 'tools/call', { name: 'feature-ping', arguments: {} });
    expect(response.status).toBe(200);
    assertResultResponse(response.body, 'CallToolResult');
    expect(response.body.result.content).toEqual([{ type: 'text', text: 'pong from the feature' }]);
    // the registry the feature module got is the one the endpoint serves from
    expect(running.app.get(McpRegistry).getTool('feature-ping')).toBeDefined();
  });

  it('McpModule.forRoot() twice for the same endpoint fails start-up with a clear message', async () => {
    const error = await startupFailure([McpModule.forRoot(), McpModule.forRoot({ name: 'second' }), toolsModule]);
    expect(error.message).toBe(
      'McpModule.forRoot() is imported more than once for the endpoint "/mcp": import it once, in the root module. ' +
        'It is global: any module can inject McpRegistry to add tools, prompts and resources at run time.',
    );
  });

  it('the same endpoint spelled differently ("mcp" and "/mcp") is the same endpoint', async () => {
    const error = await startupFailure([McpModule.forRoot({ endpoint: 'mcp' }), McpModule.forRoot(), toolsModule]);
    expect(error.message).toMatch(/^McpModule\.forRoot\(\) is imported more than once for the endpoint "\/mcp"/);
  });

  it('two forRoot() for different endpoints still serve side by side, each with its own serverInfo', async () => {
    running = await startApp([McpModule.forRoot({ endpoint: '/a', name: 'a' }), McpModule.forRoot({ endpoint: '/b', name: 'b' }), toolsModule], '/a');
    for (const name of ['a', 'b']) {
      const response = await callMcp(`${running.baseUrl}/${name}`, 'tools/call', { name: 'c2', arguments: {} });
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe(name);
    }
  });
});
