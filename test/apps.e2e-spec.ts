import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, Module } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { McpAppResource, McpArg, McpModule, McpRegistry, McpTool, McpUi } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';
import { callMcp, plain, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { assertMatchesDef } from './support/wire-schema.js';

const UI = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';

const CLOCK_HTML = '<!DOCTYPE html><html><head><title>Clock</title></head><body><p id="time"></p></body></html>';
const CSP = { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.example-cdn.com'] };

/** An app served by a provider method, a tool linked to it (app-only), and one whose app HTML is given inline. */
@Injectable()
class ClockApp {
  @McpAppResource({ uri: 'ui://clock/view.html', name: 'clock', description: 'A clock', ui: { csp: CSP, permissions: { clipboardWrite: {} } } })
  view(): string {
    return CLOCK_HTML;
  }

  @McpTool({ name: 'clock-time', description: 'The time, for the clock app' })
  @McpUi({ resourceUri: 'ui://clock/view.html', visibility: ['app'] })
  time(@McpArg('zone') zone: string) {
    return { content: [{ type: 'text', text: `12:00 ${zone}` }], structuredContent: { zone, time: '12:00' } };
  }

  @McpTool({ name: 'banner', description: 'Shows a banner', _meta: { 'example.com/owner': 'tests' } })
  @McpUi({ resourceUri: 'ui://banner/view.html', html: '<!DOCTYPE html><html><body>banner</body></html>', resource: { description: 'A banner' } })
  banner(): string {
    return 'banner shown';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'apps-e2e', version: '1.0.0' })], providers: [ClockApp] })
class AppsModule {}

describe('MCP Apps (SEP-1865): app resources and linked tools', () => {
  let started: StartedApp;
  let client: Client;

  beforeAll(async () => {
    started = await startApp([AppsModule]);
    client = new Client({ name: 'nest-mcp-apps-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
  });

  afterAll(async () => {
    await client?.close();
    await started?.app.close();
  });

  it('declares the ui extension', () => {
    expect((client.getServerCapabilities() as Json).extensions).toEqual({ [UI]: { mimeTypes: [APP_MIME] } });
  });

  it('links each tool to its app with _meta.ui (and the deprecated flat key), keeping the tool\'s own _meta', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) assertMatchesDef(plain(tool), 'Tool');
    expect(plain(tools.find((tool) => tool.name === 'clock-time'))._meta).toEqual({
      ui: { resourceUri: 'ui://clock/view.html', visibility: ['app'] },
      'ui/resourceUri': 'ui://clock/view.html',
    });
    expect(plain(tools.find((tool) => tool.name === 'banner'))._meta).toEqual({
      'example.com/owner': 'tests',
      ui: { resourceUri: 'ui://banner/view.html' },
      'ui/resourceUri': 'ui://banner/view.html',
    });
  });

  it('lists the app resources with the app MIME type and _meta.ui', async () => {
    const { resources } = await client.listResources();
    for (const resource of resources) assertMatchesDef(plain(resource), 'Resource');
    expect(resources.map(plain)).toEqual([
      { uri: 'ui://clock/view.html', name: 'clock', description: 'A clock', mimeType: APP_MIME, _meta: { ui: { csp: CSP, permissions: { clipboardWrite: {} } } } },
      { uri: 'ui://banner/view.html', name: 'banner', description: 'A banner', mimeType: APP_MIME },
    ]);
  });

  it('reads an app: the HTML, the app MIME type and _meta.ui on the content item', async () => {
    const result = await client.readResource({ uri: 'ui://clock/view.html' });
    expect(result.contents).toEqual([
      { uri: 'ui://clock/view.html', mimeType: APP_MIME, text: CLOCK_HTML, _meta: { ui: { csp: CSP, permissions: { clipboardWrite: {} } } } },
    ]);
    const inline = await client.readResource({ uri: 'ui://banner/view.html' });
    expect(inline.contents).toEqual([{ uri: 'ui://banner/view.html', mimeType: APP_MIME, text: '<!DOCTYPE html><html><body>banner</body></html>' }]);
  });

  it('calls a linked tool as any other (content for the model, structuredContent for the app)', async () => {
    const result = await client.callTool({ name: 'clock-time', arguments: { zone: 'UTC' } });
    expect(result.content).toEqual([{ type: 'text', text: '12:00 UTC' }]);
    expect(result.structuredContent).toEqual({ zone: 'UTC', time: '12:00' });
  });

  it('is schema-valid on the raw wire', async () => {
    const discover = await callMcp(started.url, 'server/discover');
    expect(discover.body.result.capabilities.extensions).toEqual({ [UI]: { mimeTypes: [APP_MIME] } });
    await callMcp(started.url, 'tools/list');
    await callMcp(started.url, 'resources/list');
    const read = await callMcp(started.url, 'resources/read', { uri: 'ui://clock/view.html' });
    expect(read.body.result.contents[0].mimeType).toBe(APP_MIME);
  });
});

describe('MCP Apps: the sample forecast app', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('serves sample/apps/forecast.html at the forecast tool\'s ui:// link', async () => {
    const tools = await callMcp(started.url, 'tools/list');
    const forecast = tools.body.result.tools.find((tool: Json) => tool.name === 'forecast');
    expect(forecast._meta.ui).toEqual({ resourceUri: 'ui://forecast/view.html' });
    const read = await callMcp(started.url, 'resources/read', { uri: 'ui://forecast/view.html' });
    expect(read.body.result.contents).toEqual([
      { uri: 'ui://forecast/view.html', mimeType: APP_MIME, text: readFileSync('sample/apps/forecast.html', 'utf8'), _meta: { ui: { prefersBorder: true } } },
    ]);
  });
});

describe('MCP Apps: start-up', () => {
  it('fails when a tool links to an app resource that does not exist', async () => {
    @Injectable()
    class DeadLink {
      @McpTool({ name: 'lost', description: 'Links to nothing' })
      @McpUi({ resourceUri: 'ui://missing/view.html' })
      lost(): string {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({})], providers: [DeadLink] })
    class DeadLinkModule {}
    const error = await startupFailure([DeadLinkModule]);
    expect(error.message).toContain('Tool "lost" (DeadLink.lost()) links to the MCP App ui://missing/view.html, but no resource has that URI');
  });

  it('accepts a link to an app resource added at run time during start-up', async () => {
    @Injectable()
    class LateApp {
      constructor(registry: McpRegistry) {
        registry.addResource({ uri: 'ui://late/view.html', name: 'late', mimeType: APP_MIME }, () => '<!DOCTYPE html><html></html>');
      }
      @McpTool({ name: 'late', description: 'Links to a run-time app' })
      @McpUi({ resourceUri: 'ui://late/view.html' })
      late(): string {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({})], providers: [LateApp] })
    class LateModule {}
    const started = await startApp([LateModule]);
    try {
      const discover = await callMcp(started.url, 'server/discover');
      expect(discover.body.result.capabilities.extensions).toEqual({ [UI]: { mimeTypes: [APP_MIME] } });
    } finally {
      await started.app.close();
    }
  });

  it('fails on an unreadable app file, a URI outside ui://, or @McpUi without @McpTool', async () => {
    @Injectable()
    class MissingFile {
      @McpTool({ name: 'file-app', description: 'App from a missing file' })
      @McpUi({ resourceUri: 'ui://file/view.html', file: 'does/not/exist.html' })
      run(): string {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({})], providers: [MissingFile] })
    class MissingFileModule {}
    // A relative file is looked for beside the file declaring the tool (this one), whatever the working directory.
    const beside = fileURLToPath(new URL('does/not/exist.html', import.meta.url));
    expect((await startupFailure([MissingFileModule])).message).toContain(`cannot read the app file "does/not/exist.html" (${beside}: ENOENT)`);

    expect(() => McpAppResource({ uri: 'https://example.com/app.html', name: 'web' })).toThrow('an MCP App resource URI must start with ui://');

    @Injectable()
    class NoTool {
      @McpUi({ resourceUri: 'ui://x/view.html' })
      run(): string {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({})], providers: [NoTool] })
    class NoToolModule {}
    expect((await startupFailure([NoToolModule])).message).toContain('@McpUi() on NoTool.run() needs @McpTool() on the same method');
  });

  it('declares no ui extension for a server without apps', async () => {
    @Module({ imports: [McpModule.forRoot({})] })
    class PlainModule {}
    const started = await startApp([PlainModule]);
    try {
      expect((await callMcp(started.url, 'server/discover')).body.result.capabilities.extensions).toBeUndefined();
    } finally {
      await started.app.close();
    }
  });
});
