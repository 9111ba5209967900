import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpCustomMethods, McpModule, McpRegistry, McpResource, McpTool, ToolContext, type McpToolContext } from '../lib/index.js';
import { MCP_SEAL_SECRET } from '../lib/mcp.constants.js';
import { LegacySessionCodec } from '../lib/era/session.js';
import { callMcp, LEGACY_PROTOCOL_VERSION, legacySessionHeaders, openLegacySession, postMcp, rpc, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertLegacyServerMessage } from './support/wire-schema.js';
import { WireRecorder } from './support/wire-recorder.js';

@Injectable()
class WatchedResources {
  @McpResource({ uri: 'watch://a', name: 'a', description: 'Resource a', mimeType: 'text/plain' })
  a(): string {
    return 'a';
  }

  @McpResource({ uri: 'watch://b', name: 'b', description: 'Resource b', mimeType: 'text/plain' })
  b(): string {
    return 'b';
  }
}

/** What a module may build from the low-level primitives (the conformance fixture builds MCP logging so). */
@Injectable()
class LowLevelLogging implements OnModuleInit {
  constructor(private readonly customMethods: McpCustomMethods) {}

  onModuleInit(): void {
    this.customMethods.register('logging/setLevel', () => ({}), { capabilities: { logging: {} } });
  }

  @McpTool({ name: 'log_twice', description: 'Sends two notifications/message on its own stream' })
  logTwice(@ToolContext() ctx: McpToolContext): string {
    ctx.sendNotification('notifications/message', { level: 'info', data: `one from ${ctx.sessionId === undefined ? 'no session' : 'a session'}` });
    ctx.sendNotification('notifications/message', { level: 'info', data: 'two' });
    return 'logged';
  }
}

const SECRET = Buffer.alloc(32, 7).toString('base64');
const LEGACY = LEGACY_PROTOCOL_VERSION;

/** A v1 SDK client whose every received message is recorded; resolves once its GET stream is open. */
async function connect(url: string, recorder = new WireRecorder()) {
  const client = new Client({ name: 'streams-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
  const streamOpened = recorder.nextStream();
  await client.connect(transport);
  const stream = await streamOpened;
  return { client, transport, recorder, stream };
}

/** Resolves with the notifications of one schema, in order, as they arrive. */
function collect<T>(client: Client, schema: Parameters<Client['setNotificationHandler']>[0]) {
  const received: T[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  client.setNotificationHandler(schema, (notification) => {
    received.push(notification as T);
    for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
  });
  return {
    received,
    /** Resolves once `count` notifications have arrived in all. */
    until: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
  };
}

function assertAllLegacy(recorder: WireRecorder): void {
  expect(recorder.messages.length).toBeGreaterThan(0);
  for (const { message, method } of recorder.messages) assertLegacyServerMessage(message, method);
}

describe('2025 sessions: the standalone GET stream and resource subscriptions (v1 SDK client)', () => {
  let started: StartedApp;
  let registry: McpRegistry;

  beforeAll(async () => {
    started = await startApp([McpModule.forRoot({ name: 'streams', version: '1.0.0', mrtr: { secret: SECRET } })], '/mcp', [WatchedResources, LowLevelLogging]);
    registry = started.app.get(McpRegistry);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('initialize advertises listChanged, subscribe, and logging only because a custom method registers it', async () => {
    const { client, recorder } = await connect(started.url);
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    });
    await client.close();
    assertAllLegacy(recorder);
  });

  it('the GET stream carries tools/prompts/resources list_changed after run-time registrations', async () => {
    const { client, recorder, stream } = await connect(started.url);
    expect(stream.status).toBe(200);
    const tools = collect(client, ToolListChangedNotificationSchema);
    const prompts = collect(client, PromptListChangedNotificationSchema);
    const resources = collect(client, ResourceListChangedNotificationSchema);

    registry.addTool({ name: 'added_at_run_time', description: 'Added while the client listens' }, () => 'ok');
    await tools.until(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('added_at_run_time');
    registry.addPrompt({ name: 'added_prompt', description: 'Added while the client listens' }, () => 'hi');
    registry.addResource({ uri: 'watch://added', name: 'added', description: 'Added while the client listens' }, () => 'x');
    await prompts.until(1);
    await resources.until(1);
    registry.removeTool('added_at_run_time');
    registry.removePrompt('added_prompt');
    registry.removeResource('watch://added');
    await tools.until(2);

    await client.close();
    assertAllLegacy(recorder);
    const onStream = recorder.messages.map(({ message }) => message.method).filter(Boolean);
    expect(onStream).toEqual(expect.arrayContaining(['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']));
  });

  it('resources/subscribe brings resources/updated for that resource (and below it) only to that session; unsubscribe stops them', async () => {
    const one = await connect(started.url);
    const two = await connect(started.url);
    const updates = collect<{ params: { uri: string } }>(one.client, ResourceUpdatedNotificationSchema);
    const othersUpdates = collect<{ params: { uri: string } }>(two.client, ResourceUpdatedNotificationSchema);
    const othersTools = collect(two.client, ToolListChangedNotificationSchema);

    expect(await one.client.subscribeResource({ uri: 'watch://a' })).toEqual({});
    expect(await one.client.subscribeResource({ uri: 'watch://b' })).toEqual({});
    registry.notifyResourceUpdated('watch://a');
    registry.notifyResourceUpdated('watch://a/part');
    registry.notifyResourceUpdated('watch://other');
    await updates.until(2);

    expect(await one.client.unsubscribeResource({ uri: 'watch://a' })).toEqual({});
    registry.notifyResourceUpdated('watch://a');
    // The stream is ordered: had the unsubscribed update been sent, it would arrive before this one.
    registry.notifyResourceUpdated('watch://b');
    await updates.until(3);
    expect(updates.received.map((n) => n.params.uri)).toEqual(['watch://a', 'watch://a/part', 'watch://b']);

    // The other session subscribed to nothing: the first thing its stream carries is the list change.
    registry.notifyListChanged('tools');
    await othersTools.until(1);
    expect(othersUpdates.received).toEqual([]);

    await one.client.close();
    await two.client.close();
    assertAllLegacy(one.recorder);
    assertAllLegacy(two.recorder);
  });

  it('a tool sends notifications/message on its own stream with ctx.sendNotification(); the custom logging/setLevel answers {}', async () => {
    const { client, recorder } = await connect(started.url);
    const logs = collect<{ params: { data: string } }>(client, LoggingMessageNotificationSchema);
    expect(await client.setLoggingLevel('debug')).toEqual({});
    const result = await client.callTool({ name: 'log_twice', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'logged' }]);
    // Both came on the call's stream, ahead of its result.
    expect(logs.received.map((n) => n.params.data)).toEqual(['one from a session', 'two']);
    await client.close();
    assertAllLegacy(recorder);
  });

  it('DELETE ends the GET stream; the ended session is refused a new one (404)', async () => {
    const { client, transport, recorder, stream } = await connect(started.url);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await stream.ended;
    await client.close();
    const again = await fetch(started.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY } });
    expect(again.status).toBe(404);
    expect(((await again.json()) as Json).error.code).toBe(-32001);
    assertAllLegacy(recorder);
  });
});

describe('the GET stream on the wire (what a client hides)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([McpModule.forRoot({ name: 'streams', version: '1.0.0', mrtr: { secret: SECRET } })], '/mcp', [WatchedResources]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  async function session(): Promise<string> {
    const response = await openLegacySession(started.url);
    assertLegacyServerMessage(response.body, 'initialize');
    expect(response.body.result.capabilities).not.toHaveProperty('logging');
    return response.sessionId;
  }

  const get = (headers: Record<string, string>, signal?: AbortSignal) => fetch(started.url, { headers: { accept: 'text/event-stream', ...headers }, signal });

  it('opens text/event-stream with no proxy buffering; a second GET for the session is 409; closing it frees the slot', async () => {
    const id = await session();
    const first = new AbortController();
    const stream = await get({ 'mcp-session-id': id, 'mcp-protocol-version': LEGACY }, first.signal);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');

    const second = await get({ 'mcp-session-id': id });
    expect(second.status).toBe(409);
    const conflict = (await second.json()) as Json;
    assertLegacyServerMessage(conflict);
    expect(conflict.error.code).toBe(-32000);

    first.abort();
    await stream.body?.cancel().catch(() => undefined);
    // The server learns of the close asynchronously: retry until the slot is free (status, not time, decides).
    let reopened: Response;
    do {
      reopened = await get({ 'mcp-session-id': id });
      if (reopened.status === 409) await reopened.body?.cancel();
    } while (reopened.status === 409);
    expect(reopened.status).toBe(200);
    await fetch(started.url, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(await reopened.text()).toBe('');
  });

  it('is refused like a POST of the session: 400 without the id, 404 foreign, expired or garbage, 400 for a bad version', async () => {
    const missing = await get({ 'mcp-protocol-version': LEGACY });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Json).error.code).toBe(-32000);

    const foreignApp = await startApp([McpModule.forRoot({ mrtr: { secret: Buffer.alloc(32, 9).toString('base64') } })]);
    const foreign = await openLegacySession(foreignApp.url);
    await foreignApp.app.close();
    const secret = started.app.get<Buffer>(MCP_SEAL_SECRET);
    const dayMs = 86_400_000;
    const expired = new LegacySessionCodec(secret, dayMs, () => Date.now() - 2 * dayMs).issue({ protocolVersion: LEGACY, clientCapabilities: {} })!.sessionId;
    for (const id of [foreign.sessionId, expired, 'not-a-session']) {
      const refused = await get({ 'mcp-session-id': id, 'mcp-protocol-version': LEGACY });
      expect(refused.status).toBe(404);
      const body = (await refused.json()) as Json;
      assertLegacyServerMessage(body);
      expect(body.error.code).toBe(-32001);
    }

    const badVersion = await get({ 'mcp-session-id': await session(), 'mcp-protocol-version': '2024-01-01' });
    expect(badVersion.status).toBe(400);
  });

  it('405 without a session (the 2026-07-28 rule), for a modern version header, and on a modern-only endpoint; 406 without text/event-stream, 403 for a foreign Origin', async () => {
    const bare = await get({});
    expect(bare.status).toBe(405);
    expect(bare.headers.get('allow')).toBe('POST');
    const id = await session();
    expect((await get({ 'mcp-session-id': id, 'mcp-protocol-version': '2026-07-28' })).status).toBe(405);
    const notAcceptable = await fetch(started.url, { headers: { accept: 'application/json', 'mcp-session-id': id } });
    expect(notAcceptable.status).toBe(406);
    expect((await get({ 'mcp-session-id': id, origin: 'http://evil.example.com' })).status).toBe(403);

    const modernOnly = await startApp([McpModule.forRoot({ protocol: 'modern' })]);
    try {
      expect((await fetch(modernOnly.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id } })).status).toBe(405);
    } finally {
      await modernOnly.app.close();
    }
  });

  it('resources/subscribe is a 2025 method: a 2026-07-28 request gets -32601; a 2025 one without a uri gets -32602', async () => {
    const modern = await postMcp(started.url, rpc('resources/subscribe', { uri: 'watch://a' }), { skipSchema: true });
    expect(modern.body.error.code).toBe(-32601);
    const id = await session();
    const headers = legacySessionHeaders(id);
    const invalid = await postMcp(started.url, { jsonrpc: '2.0', id: 5, method: 'resources/subscribe', params: {} }, { headers, skipSchema: true });
    assertLegacyServerMessage(invalid.body);
    expect(invalid.body.error.code).toBe(-32602);
  });

  it('shutdown ends an open stream', async () => {
    const own = await startApp([McpModule.forRoot({ mrtr: { secret: SECRET } })]);
    const opened = await openLegacySession(own.url);
    const stream = await fetch(own.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': opened.sessionId } });
    expect(stream.status).toBe(200);
    const text = stream.text();
    await own.app.close();
    expect(await text).toBe('');
  });
});

describe('McpCustomMethods', () => {
  it('a modern custom method is served to 2026-07-28 requests and advertised in server/discover, not to 2025 sessions', async () => {
    const started = await startApp([McpModule.forRoot({})]);
    try {
      started.app.get(McpCustomMethods).register('x/echo', (params, request) => ({ echoed: params.text ?? null, session: request.sessionId ?? null }), {
        era: 'modern',
        capabilities: { experimental: { echo: {} } },
      });
      const discover = await callMcp(started.url, 'server/discover');
      expect(discover.body.result.capabilities.experimental).toEqual({ echo: {} });
      const echoed = await callMcp(started.url, 'x/echo', { text: 'hi' }, { skipSchema: true });
      expect(echoed.body.result).toEqual(expect.objectContaining({ resultType: 'complete', echoed: 'hi', session: null }));
      const legacy = await openLegacySession(started.url);
      expect(legacy.body.result.capabilities).not.toHaveProperty('experimental');
      const headers = legacySessionHeaders(legacy.sessionId);
      const refused = await postMcp(started.url, { jsonrpc: '2.0', id: 2, method: 'x/echo', params: {} }, { headers, skipSchema: true });
      expect(refused.body.error.code).toBe(-32601);
    } finally {
      await started.app.close();
    }
  });

  it('refuses a name the module serves itself', async () => {
    const started = await startApp([McpModule.forRoot({})]);
    try {
      expect(() => started.app.get(McpCustomMethods).register('tools/list', () => ({}))).toThrow('already served');
    } finally {
      await started.app.close();
    }
  });
});
