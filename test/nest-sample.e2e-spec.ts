import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpAppModule } from '../sample/http-app.module.js';
import { callMcp, postMcp, rpc, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { plainRequest } from './support/plain-request.js';
import { assertServerCard } from './support/server-card-schema.js';

describe('the sample over HTTP: a guarded tool and an interceptor', () => {
  let started: StartedApp;
  const logs: string[] = [];
  const logger = { log: (...parts: unknown[]) => logs.push(parts.map(String).join(' ')), error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined, fatal: () => undefined };

  beforeAll(async () => {
    started = await startApp([HttpAppModule], '/mcp', [], logger);
  });
  afterAll(async () => {
    await started?.app.close();
  });

  it('set-feature-flag is hidden without the admin role: not listed, and called by name it is an unknown tool', async () => {
    const list = await callMcp(started.url, 'tools/list');
    expect(list.body.result.tools.map((tool: Json) => tool.name)).not.toContain('set-feature-flag');
    const call = await postMcp(started.url, rpc('tools/call', { name: 'set-feature-flag', arguments: { flag: 'x', enabled: true } }));
    expect(call.body.error).toEqual({ code: -32602, message: 'Unknown tool: set-feature-flag' });
  });

  it('with X-Demo-Role: admin it is listed and runs; the interceptor logs the call', async () => {
    const headers = { 'x-demo-role': 'admin' };
    const list = await callMcp(started.url, 'tools/list', {}, { headers });
    expect(list.body.result.tools.map((tool: Json) => tool.name)).toContain('set-feature-flag');
    const call = await postMcp(started.url, rpc('tools/call', { name: 'set-feature-flag', arguments: { flag: 'new-billing', enabled: true } }, { id: 'flag-1' }), { headers });
    expect(call.body.result.structuredContent).toEqual({ flags: { 'new-billing': true } });
    expect(logs.some((line) => /tool "set-feature-flag" took [\d.]+ ms \(request flag-1\)/.test(line))).toBe(true);
  });

  it('serves its Server Card, listed in its AI Catalog, and the card agrees with server/discover', async () => {
    const catalog = JSON.parse((await plainRequest(`${started.baseUrl}/.well-known/ai-catalog.json`)).body);
    expect(catalog.entries).toEqual([{ identifier: 'urn:air:example.com:mcp:nest-mcp-sample', type: 'application/mcp-server-card+json', url: `${started.url}/server-card` }]);
    const card = JSON.parse((await plainRequest(catalog.entries[0].url, { Accept: 'application/mcp-server-card+json' })).body);
    assertServerCard(card);
    const discover = await callMcp(card.remotes[0].url, 'server/discover');
    const serverInfo = discover.body.result._meta['io.modelcontextprotocol/serverInfo'];
    expect(card).toMatchObject({ name: `com.example/${serverInfo.name}`, version: serverInfo.version, title: serverInfo.title });
    expect(card.remotes[0].supportedProtocolVersions).toEqual(expect.arrayContaining(discover.body.result.supportedVersions));
  });
});
