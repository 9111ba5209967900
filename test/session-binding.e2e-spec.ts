import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpModule, McpTool, ToolContext, type McpToolContext } from '../lib/index.js';
import { AUTH_OPTIONS, makeKeys, signToken } from './src/nest-auth.fixture.js';
import { legacyInitialize, LEGACY_HEADERS, legacySessionHeaders, postMcp, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { within } from './support/waiting.js';

/** What the held tool saw: its start (so a test knows the call is in flight) and its signal firing. */
const held = {
  started: undefined as undefined | (() => void),
  aborted: 0,
};

@Injectable()
class BoundTools {
  @McpTool({ name: 'ask-name', description: 'Asks the user for a name' })
  async askName(@ToolContext() ctx: McpToolContext) {
    const answer = await ctx.elicit('Your name?', (schema) => schema.string('name', 'Name'));
    return answer.action === 'accept' ? `Hello, ${String(answer.content.name)}` : `No name (${answer.action})`;
  }

  @McpTool({ name: 'held', description: 'Runs until its call is cancelled' })
  async hold(@ToolContext() ctx: McpToolContext) {
    held.started?.();
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    held.aborted++;
    return 'cancelled';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'session-binding', version: '1.0.0', auth: AUTH_OPTIONS })], providers: [BoundTools] })
class SessionBindingModule {}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const UNKNOWN_SESSION = { code: -32001, message: expect.stringContaining('Session not found') };

/**
 * A 2025 session belongs to the principal that opened it (issue 26 §2): with auth on, another user
 * holding the session id and a valid token of their own is told the session does not exist, for every
 * kind of message, and cannot touch the owner's calls, questions or stream.
 */
describe('2025 sessions are bound to the user who opened them (auth on)', () => {
  let started: StartedApp;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  beforeAll(async () => {
    await makeKeys();
    alice = bearer(await signToken({ sub: 'alice' }));
    bob = bearer(await signToken({ sub: 'bob' }));
    started = await startApp([SessionBindingModule]);
  });
  afterAll(async () => {
    await started?.app.close();
  });

  async function openSession(token: Record<string, string>): Promise<string> {
    const opened = await postMcp(started.url, legacyInitialize(), { headers: { ...LEGACY_HEADERS, ...token }, skipSchema: true });
    expect(opened.status).toBe(200);
    return opened.headers.get('mcp-session-id')!;
  }

  /** POSTs a message of the session `sessionId` as `token`'s holder. */
  function post(sessionId: string, token: Record<string, string>, body: Json) {
    return postMcp(started.url, body, { headers: { ...legacySessionHeaders(sessionId), ...token }, skipSchema: true });
  }

  it('another user is answered 404 -32001 for a request, ping, a notification, a response, GET and DELETE; the owner is served throughout', async () => {
    const sessionId = await openSession(alice);
    const tries = [
      await post(sessionId, bob, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      await post(sessionId, bob, { jsonrpc: '2.0', id: 2, method: 'ping' }),
      await post(sessionId, bob, { jsonrpc: '2.0', method: 'notifications/initialized' }),
      await post(sessionId, bob, { jsonrpc: '2.0', id: 'not-asked', result: {} }),
      await postMcp(started.url, undefined, { method: 'GET', headers: { ...legacySessionHeaders(sessionId), accept: 'text/event-stream', ...bob }, skipSchema: true }),
      await postMcp(started.url, undefined, { method: 'DELETE', headers: { ...legacySessionHeaders(sessionId), ...bob }, skipSchema: true }),
    ];
    for (const refused of tries) {
      expect(refused.status).toBe(404);
      expect(refused.body?.error).toEqual(UNKNOWN_SESSION);
    }
    // Told exactly as a session that never existed.
    const unknown = await post('no-such-session', bob, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual(tries[0]!.body.error);
    // Alice's session is untouched by all that, DELETE included.
    const listed = await post(sessionId, alice, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.map((tool: Json) => tool.name)).toEqual(expect.arrayContaining(['ask-name', 'held']));
    // Without a token at all the endpoint asks for one (401) before any session is looked at: POST, GET and DELETE alike.
    const anonymous = [
      await postMcp(started.url, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, { headers: legacySessionHeaders(sessionId), skipSchema: true }),
      await postMcp(started.url, undefined, { method: 'GET', headers: { ...legacySessionHeaders(sessionId), accept: 'text/event-stream' }, skipSchema: true }),
      await postMcp(started.url, undefined, { method: 'DELETE', headers: legacySessionHeaders(sessionId), skipSchema: true }),
    ];
    expect(anonymous.map((response) => [response.status, response.headers.get('www-authenticate')?.startsWith('Bearer ')])).toEqual([
      [401, true],
      [401, true],
      [401, true],
    ]);
  });

  it("another user cannot answer the owner's pending question: the owner's own answer is the one the tool gets", async () => {
    const token = alice.authorization;
    const client = new Client({ name: 'alice', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const transport = new StreamableHTTPClientTransport(new URL(started.url), { requestInit: { headers: { authorization: token } } });
    const forged: number[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
      // Bob posts an answer to Alice's question, under her session id, before she does.
      const attempt = await post(transport.sessionId!, bob, { jsonrpc: '2.0', id: extra.requestId, result: { action: 'accept', content: { name: 'Mallory' } } });
      forged.push(attempt.status);
      return { action: 'accept', content: { name: 'Alice' } };
    });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'ask-name', arguments: {} });
      expect(forged).toEqual([404]);
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Alice' }]);
    } finally {
      await client.close();
    }
  });

  it("another user cannot cancel the owner's call; the owner can", async () => {
    const sessionId = await openSession(alice);
    const running = new Promise<void>((resolve) => (held.started = resolve));
    const call = post(sessionId, alice, { jsonrpc: '2.0', id: 'held-1', method: 'tools/call', params: { name: 'held', arguments: {} } });
    await within(running, 'the held tool to start');
    const cancelled = (requestId: string) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'stop' } });
    const forged = await post(sessionId, bob, cancelled('held-1'));
    expect(forged.status).toBe(404);
    expect(held.aborted).toBe(0);
    const own = await post(sessionId, alice, cancelled('held-1'));
    expect(own.status).toBe(202);
    await within(call, "the held call's end");
    expect(held.aborted).toBe(1);
  });

  it("another user's GET does not take the owner's stream: it is refused, and the owner's GET is the one that opens", async () => {
    const sessionId = await openSession(alice);
    const get = (token: Record<string, string>, signal?: AbortSignal) =>
      fetch(started.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', ...token }, signal });
    const forged = await get(bob);
    expect(forged.status).toBe(404);
    expect(await forged.json()).toMatchObject({ error: UNKNOWN_SESSION });
    const stop = new AbortController();
    const own = await get(alice, stop.signal);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('text/event-stream');
    stop.abort();
    await own.body?.cancel().catch(() => undefined);
  });
});
