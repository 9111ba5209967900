import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpModule } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';
import { callMcp, LEGACY_HEADERS, legacyInitialize, legacySessionHeaders, openLegacySession, postMcp, rpc, startApp, type StartedApp } from './support/mcp-http.js';
import { assertLegacyServerMessage } from './support/wire-schema.js';

/** Era detection per request on one endpoint (the classifier table), over real HTTP. */
describe('era detection and 2025 sessions (hand-written HTTP)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  async function open(): Promise<string> {
    const opened = await openLegacySession(started.url);
    expect(opened.status).toBe(200);
    return opened.sessionId;
  }

  it('initialize without a modern claim opens a session; the version is negotiated down, or counter-offered', async () => {
    for (const [asked, answered] of [['2025-11-25', '2025-11-25'], ['2025-06-18', '2025-06-18'], ['2025-03-26', '2025-03-26'], ['1.0.0', '2025-11-25'], ['2026-07-28', '2025-11-25']]) {
      const response = await postMcp(started.url, legacyInitialize(asked), { headers: { ...LEGACY_HEADERS, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'initialize' }, skipSchema: true });
      expect(response.status).toBe(200);
      assertLegacyServerMessage(response.body, 'initialize');
      expect(response.body.result.protocolVersion).toBe(answered);
      expect(response.body.result.serverInfo).toEqual(expect.objectContaining({ name: 'nest-mcp-sample' }));
      expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    }
  });

  it('initialize with the modern claim is a modern request: -32601 / 404, no session', async () => {
    const response = await callMcp(started.url, 'initialize', { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe(-32601);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('initialize with a modern MCP-Protocol-Version header is -32020', async () => {
    const response = await postMcp(started.url, legacyInitialize(), { headers: { ...LEGACY_HEADERS, 'mcp-protocol-version': '2026-07-28' }, skipSchema: true });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32020);
  });

  it('a request of neither era names the versions the server speaks', async () => {
    const response = await postMcp(started.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { headers: LEGACY_HEADERS, skipSchema: true });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32602);
    expect(response.body.error.message).toContain('2026-07-28');
    expect(response.body.error.message).toContain('2025-11-25');
    expect(response.body.error.data.supported).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  });

  it('a modern request without its envelope but with the modern header keeps the modern error', async () => {
    const response = await postMcp(started.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, skipSchema: true });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(-32602);
    expect(response.body.error.message).toMatch(/^Invalid request _meta: params/);
    expect(response.body.error.message).not.toContain('2025');
  });

  it('modern requests are served as before, an Mcp-Session-Id beside them ignored', async () => {
    const session = await open();
    const response = await callMcp(started.url, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }, { headers: { 'mcp-session-id': session } });
    expect(response.status).toBe(200);
    expect(response.body.result.resultType).toBe('complete');
    expect(response.body.result._meta['io.modelcontextprotocol/serverInfo']).toBeDefined();
  });

  it('session errors: 400 without Mcp-Session-Id, 404 for an unknown or altered one, 400 for an unsupported version header', async () => {
    const missing = await postMcp(started.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { headers: { ...LEGACY_HEADERS, 'mcp-protocol-version': '2025-11-25' }, skipSchema: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe(-32000);
    const session = await open();
    const altered = `${session.slice(0, -2)}${session.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const id of ['nope', altered, rpc('x').id.toString()]) {
      const unknown = await postMcp(started.url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, { headers: { ...LEGACY_HEADERS, 'mcp-session-id': id }, skipSchema: true });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe(-32001);
    }
    const badVersion = await postMcp(started.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { headers: { ...LEGACY_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2024-01-01' }, skipSchema: true });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.message).toContain('2025-11-25');
  });

  it('notifications/initialized is 202; ping is {} exactly; GET opens the standalone stream; DELETE ends both (then 404)', async () => {
    const session = await open();
    const headers = legacySessionHeaders(session);
    const initialized = await postMcp(started.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { headers, skipSchema: true });
    expect(initialized.status).toBe(202);
    const ping = await postMcp(started.url, { jsonrpc: '2.0', id: 8, method: 'ping' }, { headers, skipSchema: true });
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    const list = await postMcp(started.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { headers, skipSchema: true });
    assertLegacyServerMessage(list.body, 'tools/list');
    const discover = await postMcp(started.url, { jsonrpc: '2.0', id: 10, method: 'server/discover' }, { headers, skipSchema: true });
    expect(discover.body.error.code).toBe(-32601);
    const stream = await fetch(started.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    expect(stream.status).toBe(200);
    expect((await fetch(started.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(200);
    expect(await stream.text()).toBe('');
    const after = await postMcp(started.url, { jsonrpc: '2.0', id: 11, method: 'tools/list' }, { headers, skipSchema: true });
    expect(after.status).toBe(404);
    expect((await fetch(started.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(404);
  });
});

describe('the protocol option', () => {
  it("'modern' refuses initialize with -32022 naming the modern versions, and serves modern requests", async () => {
    const started = await startApp([McpModule.forRoot({ protocol: 'modern' })]);
    try {
      const refused = await postMcp(started.url, legacyInitialize(), { headers: LEGACY_HEADERS, skipSchema: true });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(-32022);
      expect(refused.body.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
      expect((await callMcp(started.url, 'tools/list')).status).toBe(200);
    } finally {
      await started.app.close();
    }
  });

  it("'legacy' (from MOCAPI_PROTOCOL) serves initialize and refuses modern requests with a non-modern code", async () => {
    process.env.MOCAPI_PROTOCOL = 'legacy';
    let started: StartedApp | undefined;
    try {
      started = await startApp([McpModule.forRoot({})]);
      const opened = await openLegacySession(started.url);
      expect(opened.status).toBe(200);
      const modern = await callMcp(started.url, 'tools/list', {}, { skipSchema: true });
      expect(modern.status).toBe(400);
      expect(modern.body.error.code).toBe(-32600);
      expect(modern.body.error.message).toContain('2025-11-25');
    } finally {
      delete process.env.MOCAPI_PROTOCOL;
      await started?.app.close();
    }
  });

  it('refuses an unknown posture at start-up', async () => {
    await expect(startApp([McpModule.forRoot({ protocol: 'both' as never })])).rejects.toThrow('McpModule option protocol must be one of');
  });
});
