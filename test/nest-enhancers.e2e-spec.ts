import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { bootstrapStdio } from '../lib/index.js';
import { EnhancersFixtureModule, META_ROLE, seen } from './src/nest-enhancers.fixture.js';
import {
  callMcp,
  LEGACY_PROTOCOL_VERSION,
  legacySessionHeaders,
  openLegacySession,
  postMcp,
  rpc,
  standardMeta,
  startApp,
  type Json,
  type StartedApp,
} from './support/mcp-http.js';
import { JsonLines } from './support/waiting.js';
import { assertErrorResponse, assertLegacyServerMessage, assertResultResponse, assertServerMessage } from './support/wire-schema.js';

const ADMIN = { 'x-role': 'admin' };

describe('Nest enhancers on MCP handlers (e2e)', () => {
  let started: StartedApp;
  const entries: Array<{ level: string; text: string }> = [];
  const record = (level: string) => (...parts: unknown[]) => entries.push({ level, text: parts.map((part) => (part instanceof Error ? `${part.message} ${part.stack}` : String(part))).join(' ') });
  const logger = { log: record('log'), error: record('error'), warn: record('warn'), debug: record('debug'), verbose: record('verbose'), fatal: record('fatal') };

  beforeAll(async () => {
    started = await startApp([EnhancersFixtureModule], '/mcp', [], logger);
  });
  afterAll(async () => {
    await started?.app.close();
  });
  beforeEach(() => {
    seen.reset();
    entries.length = 0;
  });

  async function call(name: string, args: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Json> {
    return postMcp(started.url, rpc('tools/call', { name, arguments: args }), { headers });
  }

  describe('guards', () => {
    it('a class guard that allows: the tool runs, the guard saw an "mcp" context with the invocation', async () => {
      const response = await call('admin-visible', {}, ADMIN);
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result.content).toEqual([{ type: 'text', text: 'visible ran' }]);
      expect(seen.guard).toEqual([
        { type: 'mcp', kind: 'tool', name: 'admin-visible', probe: false, args: {}, hasContext: true, hasHttp: true, method: 'tools/call' },
      ]);
    });

    it('a guard that denies → JSON-RPC error -31003 (HTTP 200), and the handler does not run', async () => {
      const response = await call('admin-visible');
      expect(response.status).toBe(200);
      assertErrorResponse(response.body);
      expect(response.body.error).toEqual({ code: -31003, message: 'Forbidden resource' });
      expect(response.body).not.toHaveProperty('result');
      expect(seen.handlerRuns).toEqual([]);
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('a guard throwing UnauthorizedException → JSON-RPC error -31001 with its message', async () => {
      const denied = await call('needs-user');
      assertErrorResponse(denied.body);
      expect(denied.body.error).toEqual({ code: -31001, message: 'Who are you?' });
      expect(seen.handlerRuns).toEqual([]);
      const allowed = await call('needs-user', {}, { 'x-user': 'ada' });
      expect(allowed.body.result.content[0].text).toBe('hello user');
    });

    it("guards run before argument checks: an unauthorised call with invalid arguments gets the guard's error, not the schema (changed: checks used to run first)", async () => {
      const denied = await call('admin-set', { level: 'high' });
      assertErrorResponse(denied.body);
      expect(denied.body.error).toEqual({ code: -31003, message: 'Forbidden resource' });
      expect(JSON.stringify(denied.body)).not.toContain('level');
      // The guard saw the arguments as sent.
      expect(seen.guard.map((entry) => entry.args)).toEqual([{ level: 'high' }]);
      const allowed = await call('admin-set', { level: 'high' }, ADMIN);
      expect(allowed.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('level') }] });
      expect(seen.handlerRuns).toEqual([]);
    });

    it('guards apply to prompts and resources too', async () => {
      const resource = await postMcp(started.url, rpc('resources/read', { uri: 'admin://report' }));
      expect(resource.body.error.code).toBe(-31003);
      const prompt = await postMcp(started.url, rpc('prompts/get', { name: 'admin-prompt' }), { headers: ADMIN });
      expect(prompt.body.result.messages).toHaveLength(1);
      // The prompt is hideWhenDenied: its lookup runs the guards as a probe first, then the call runs them.
      expect(seen.guard.map((entry) => [entry.kind, entry.name, entry.probe])).toEqual([
        ['resource', 'admin://report', false],
        ['prompt', 'admin-prompt', true],
        ['prompt', 'admin-prompt', false],
      ]);
      const read = await postMcp(started.url, rpc('resources/read', { uri: 'admin://report' }), { headers: ADMIN });
      assertResultResponse(read.body, 'ReadResourceResult');
      expect(seen.handlerRuns).toEqual(['admin-prompt', 'admin-report']);
    });
  });

  describe('hideWhenDenied', () => {
    it('tools/list runs the guards of opted-in tools with a probe and leaves out denied ones', async () => {
      const anonymous = await callMcp(started.url, 'tools/list');
      assertResultResponse(anonymous.body, 'ListToolsResult');
      const names = anonymous.body.result.tools.map((tool: Json) => tool.name);
      expect(names).toContain('admin-visible');
      expect(names).not.toContain('admin-hidden');
      expect(names).not.toContain('friends-only');
      expect(anonymous.body.result.tools.every((tool: Json) => !('hideWhenDenied' in tool))).toBe(true);
      // Only the opted-in tool was probed, and the probe carries no arguments and no context.
      const probes = seen.guard.filter((entry) => entry.probe);
      expect(probes).toEqual([{ type: 'mcp', kind: 'tool', name: 'admin-hidden', probe: true, args: {}, hasContext: false, hasHttp: true, method: 'tools/list' }]);
      expect(seen.handlerRuns).toEqual([]);

      const admin = await callMcp(started.url, 'tools/list', {}, { headers: ADMIN });
      const adminNames = admin.body.result.tools.map((tool: Json) => tool.name);
      expect(adminNames.indexOf('admin-hidden')).toBe(adminNames.indexOf('admin-visible') + 1);
    });

    it('prompts/list hides a denied opted-in prompt', async () => {
      const anonymous = await callMcp(started.url, 'prompts/list');
      expect(anonymous.body.result.prompts.map((prompt: Json) => prompt.name)).not.toContain('admin-prompt');
      const admin = await callMcp(started.url, 'prompts/list', {}, { headers: ADMIN });
      expect(admin.body.result.prompts.map((prompt: Json) => prompt.name)).toContain('admin-prompt');
    });

    it('resources/list and resources/templates/list hide denied opted-in resources and templates', async () => {
      const uris = async (headers: Record<string, string>) => (await callMcp(started.url, 'resources/list', {}, { headers })).body.result.resources.map((r: Json) => r.uri);
      const templates = async (headers: Record<string, string>) =>
        (await callMcp(started.url, 'resources/templates/list', {}, { headers })).body.result.resourceTemplates.map((t: Json) => t.uriTemplate);
      expect(await uris({})).toContain('admin://report');
      expect(await uris({})).not.toContain('admin://hidden-report');
      expect(await uris(ADMIN)).toContain('admin://hidden-report');
      expect(await templates({})).not.toContain('admin://hidden/{id}');
      expect(await templates(ADMIN)).toContain('admin://hidden/{id}');
    });

    /** The answer without its id, the name or URI asked for replaced by NAME: what tells a hidden entry from an unknown one, if anything. */
    async function answer(method: string, params: Record<string, unknown>, asked: string, headers: Record<string, string> = {}): Promise<Json> {
      const response = await postMcp(started.url, rpc(method, params), { headers });
      const { id: _id, ...body } = response.body as Json;
      return { status: response.status, body: JSON.parse(JSON.stringify(body).replaceAll(asked, 'NAME')) };
    }

    const complete = (ref: Json, name: string, value = '') => ({ ref, argument: { name, value } });

    it.each([
      ['tools/call', { name: 'admin-hidden', arguments: {} }, { name: 'no-such-tool', arguments: {} }, 'admin-hidden', 'no-such-tool'],
      ['tools/call', { name: 'admin-hidden', arguments: 5 }, { name: 'no-such-tool', arguments: 5 }, 'admin-hidden', 'no-such-tool'],
      ['prompts/get', { name: 'admin-prompt' }, { name: 'no-such-prompt' }, 'admin-prompt', 'no-such-prompt'],
      ['resources/read', { uri: 'admin://hidden-report' }, { uri: 'admin://no-such-report' }, 'admin://hidden-report', 'admin://no-such-report'],
      ['resources/read', { uri: 'admin://hidden/7' }, { uri: 'nowhere://hidden/7' }, 'admin://hidden/7', 'nowhere://hidden/7'],
      [
        'completion/complete',
        complete({ type: 'ref/prompt', name: 'admin-prompt' }, 'topic'),
        complete({ type: 'ref/prompt', name: 'no-such-prompt' }, 'topic'),
        'admin-prompt',
        'no-such-prompt',
      ],
      [
        'completion/complete',
        complete({ type: 'ref/resource', uri: 'admin://hidden/{id}' }, 'id', 'a'),
        complete({ type: 'ref/resource', uri: 'admin://nothing/{id}' }, 'id', 'a'),
        'admin://hidden/{id}',
        'admin://nothing/{id}',
      ],
    ])('%s of an entry hidden from the caller %j is answered exactly as an unknown one (code, message, HTTP status)', async (method, hidden, unknown, hiddenName, unknownName) => {
      const [asHidden, asUnknown] = await Promise.all([answer(method, hidden, hiddenName), answer(method, unknown, unknownName)]);
      expect(asHidden).toEqual(asUnknown);
      expect(asHidden.body.error.code).toBe(-32602);
      expect(seen.handlerRuns).toEqual([]);
      // Only the lookup's probes ran the guards: no guard saw the call itself.
      expect(seen.guard.filter((entry) => !entry.probe)).toEqual([]);
    });

    it('a caller the guards allow finds and uses each hidden entry', async () => {
      expect((await call('admin-hidden', {}, ADMIN)).body.result.content).toEqual([{ type: 'text', text: 'hidden ran' }]);
      expect((await postMcp(started.url, rpc('prompts/get', { name: 'admin-prompt' }), { headers: ADMIN })).body.result.messages).toHaveLength(1);
      const report = await postMcp(started.url, rpc('resources/read', { uri: 'admin://hidden-report' }), { headers: ADMIN });
      expect(report.body.result.contents[0].text).toBe('the hidden report');
      const item = await postMcp(started.url, rpc('resources/read', { uri: 'admin://hidden/7' }), { headers: ADMIN });
      expect(item.body.result.contents[0].text).toBe('item 7');
      const ids = await postMcp(started.url, rpc('completion/complete', complete({ type: 'ref/resource', uri: 'admin://hidden/{id}' }, 'id', 'a')), { headers: ADMIN });
      expect(ids.body.result.completion.values).toEqual(['a1', 'a2']);
      expect(seen.handlerRuns).toEqual(['admin-hidden', 'admin-prompt', 'admin-hidden-report', 'admin-hidden-item']);
    });
  });

  describe('interceptors and pipes', () => {
    it("an interceptor sees the handler's raw return value and its replacement becomes the result", async () => {
      const response = await call('wrapped', { n: 21 });
      assertResultResponse(response.body, 'CallToolResult');
      expect(seen.interceptor).toEqual([{ name: 'wrapped', result: { doubled: 42 } }]);
      expect(response.body.result.structuredContent).toEqual({ wrapped: { doubled: 42 }, tool: 'wrapped' });
    });

    it('interceptors wrap the argument checks: an interceptor sees a call whose arguments are invalid', async () => {
      const response = await call('counted', { n: 'not a number' });
      expect(response.body.result).toMatchObject({ isError: true });
      expect(seen.intercepted).toEqual(['counted']);
    });

    it('@UsePipes on the method transforms the (validated) arguments; context parameters are untouched', async () => {
      const response = await call('shout-pipe', { word: 'hey' });
      expect(response.body.result.content[0].text).toBe('HEY from shout-pipe');
    });
  });

  describe('exception filters', () => {
    it("a filter's return value answers the call: a domain error becomes a tool error result, not logged", async () => {
      const response = await call('buy', { sku: 'A-1' });
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Sorry: A-1 is sold out (buy)' }] });
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('an error the filter does not catch is a tool error with a reference, logged once with it, the request id and stack', async () => {
      const body = rpc('tools/call', { name: 'buy', arguments: { sku: 'boom' } }, { id: 'req-boom' });
      const response = await postMcp(started.url, body);
      expect(response.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }] });
      const ref = /ref ([0-9a-f]{16})/.exec(response.body.result.content[0].text)![1];
      const mentions = entries.filter((entry) => entry.text.includes('unfiltered failure'));
      expect(mentions).toHaveLength(1);
      expect(mentions[0].level).toBe('error');
      expect(mentions[0].text).toContain('req-boom');
      expect(mentions[0].text).toContain(ref);
      expect(mentions[0].text).toMatch(/\bat \S*buy/);
    });

    it('a filter that throws an McpError turns the failure into that JSON-RPC error', async () => {
      const response = await call('mapped');
      assertErrorResponse(response.body);
      expect(response.body.error).toEqual({ code: -31500, message: 'Mapped: database down' });
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('a filter that returns nothing declines: the error is answered and logged once, as without it', async () => {
      const response = await call('declined');
      expect(response.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }] });
      expect(entries.filter((entry) => entry.text.includes('nobody handled me'))).toHaveLength(1);
    });

    it("Nest's 4xx HttpExceptions are answers, not faults: a tool error with the message, not logged", async () => {
      const response = await call('bad-request');
      expect(response.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'That will not do' }] });
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    });
  });

  describe('completions receive the real call', () => {
    it('a request-scoped completion provider gets the HTTP request of the completion/complete call as REQUEST', async () => {
      const complete = (caller: string) =>
        postMcp(
          started.url,
          rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greet-caller' }, argument: { name: 'name', value: '!' } }),
          { headers: { 'x-caller': caller } },
        );
      const [ada, bob] = await Promise.all([complete('ada'), complete('bob')]);
      expect(ada.body.result.completion.values).toEqual(['ada!']);
      expect(bob.body.result.completion.values).toEqual(['bob!']);
    });
  });

  describe('request-scoped enhancers', () => {
    it('a request-scoped guard is made per request with that request injected', async () => {
      // friends-only is hideWhenDenied: a stranger cannot find it.
      const denied = await call('friends-only', {}, { 'x-caller': 'stranger' });
      expect(denied.body.error).toEqual({ code: -32602, message: 'Unknown tool: friends-only' });
      const allowed = await call('friends-only', {}, { 'x-caller': 'friend' });
      expect(allowed.body.result.content[0].text).toBe('hi friend');
      expect(seen.scopedGuardInstances).toBeGreaterThanOrEqual(2);
    });

    it('hideWhenDenied works with a request-scoped guard', async () => {
      const friend = await callMcp(started.url, 'tools/list', {}, { headers: { 'x-caller': 'friend' } });
      expect(friend.body.result.tools.map((tool: Json) => tool.name)).toContain('friends-only');
      const stranger = await callMcp(started.url, 'tools/list', {}, { headers: { 'x-caller': 'stranger' } });
      expect(stranger.body.result.tools.map((tool: Json) => tool.name)).not.toContain('friends-only');
    });

    it('a request-scoped interceptor sees its own request, also under concurrency', async () => {
      const callers = ['c1', 'c2', 'c3', 'c4'];
      const results = await Promise.all(callers.map((caller) => call('stamped', {}, { 'x-caller': caller })));
      expect(results.map((response) => response.body.result.content[0].text)).toEqual(callers.map((caller) => `stamped (seen by ${caller})`));
    });
  });
});

/**
 * The same enhancers where no HTTP request exists: bootstrapStdio serving the fixture on in-memory
 * pipes (the transport and dispatcher a spawned stdio server runs, minus the OS pipe).
 */
describe('Nest enhancers over stdio (e2e)', () => {
  /** A stdio server of the fixture; its output read as JSON lines. */
  async function stdioServer() {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = new JsonLines('the stdio server', output);
    const server = await bootstrapStdio(EnhancersFixtureModule, { input, output, logger: false, exitOnClose: false, handleSignals: false });
    let nextId = 0;
    /** Writes one request line and resolves with its response, checked against the 2026-07-28 schema. */
    const request = async (method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}): Promise<Json> => {
      const id = `stdio-${++nextId}`;
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: standardMeta(meta) } })}\n`);
      const response = await out.response(id);
      assertServerMessage(response, { method });
      return response;
    };
    const call = (name: string, args: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => request('tools/call', { name, arguments: args }, meta);
    return { input, out, server, request, call };
  }

  let stdio: Awaited<ReturnType<typeof stdioServer>>;

  beforeAll(async () => {
    stdio = await stdioServer();
  });
  afterAll(async () => {
    await stdio?.server.close();
  });
  beforeEach(() => {
    seen.reset();
  });

  it('a guard that denies → -31003, the handler does not run; the guard saw an "mcp" context and no HTTP request', async () => {
    const response = await stdio.call('admin-visible');
    expect(response.error).toEqual({ code: -31003, message: 'Forbidden resource' });
    expect(response).not.toHaveProperty('result');
    expect(seen.guard).toEqual([
      { type: 'mcp', kind: 'tool', name: 'admin-visible', probe: false, args: {}, hasContext: true, hasHttp: false, method: 'tools/call' },
    ]);
    expect(seen.handlerRuns).toEqual([]);
  });

  it('a guard throwing UnauthorizedException → -31001 with its message', async () => {
    const response = await stdio.call('needs-user');
    expect(response.error).toEqual({ code: -31001, message: 'Who are you?' });
    expect(seen.handlerRuns).toEqual([]);
  });

  it("a guard deciding on the call's _meta: allowed, the handler runs; without it, -31003", async () => {
    const allowed = await stdio.call('meta-admin', {}, { [META_ROLE]: 'admin' });
    expect(allowed.result.content).toEqual([{ type: 'text', text: 'meta admin ran' }]);
    const denied = await stdio.call('meta-admin', {}, { [META_ROLE]: 'guest' });
    expect(denied.error).toEqual({ code: -31003, message: 'Forbidden resource' });
    expect(seen.handlerRuns).toEqual(['meta-admin']);
  });

  it("an interceptor sees the handler's raw return value and its replacement becomes the result", async () => {
    const response = await stdio.call('wrapped', { n: 21 });
    expect(seen.interceptor).toEqual([{ name: 'wrapped', result: { doubled: 42 } }]);
    expect(response.result.structuredContent).toEqual({ wrapped: { doubled: 42 }, tool: 'wrapped' });
  });

  it('an interceptor wraps the argument checks: it sees a call whose arguments are invalid', async () => {
    const response = await stdio.call('counted', { n: 'not a number' });
    expect(response.result).toMatchObject({ isError: true });
    expect(seen.intercepted).toEqual(['counted']);
  });

  it('tools/list probes the guard of a hideWhenDenied tool (no HTTP request) and leaves it out', async () => {
    const response = await stdio.request('tools/list', {});
    const names = response.result.tools.map((tool: Json) => tool.name);
    expect(names).toContain('admin-visible');
    expect(names).not.toContain('admin-hidden');
    expect(seen.guard.filter((entry) => entry.probe)).toEqual([
      { type: 'mcp', kind: 'tool', name: 'admin-hidden', probe: true, args: {}, hasContext: false, hasHttp: false, method: 'tools/list' },
    ]);
  });

  it('a hidden tool called by name is answered as an unknown one', async () => {
    const [hidden, unknown] = await Promise.all([
      stdio.request('tools/call', { name: 'admin-hidden', arguments: {} }),
      stdio.request('tools/call', { name: 'no-such-tool', arguments: {} }),
    ]);
    expect(hidden.error).toEqual({ code: -32602, message: 'Unknown tool: admin-hidden' });
    expect(unknown.error).toEqual({ code: -32602, message: 'Unknown tool: no-such-tool' });
    expect(seen.handlerRuns).toEqual([]);
  });

  it('a 2025 pipe (opened by initialize) runs the same guards and interceptors', async () => {
    const pipe = await stdioServer();
    try {
      const line = (id: number, method: string, params: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
      pipe.input.write(line(1, 'initialize', { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }));
      pipe.input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      pipe.input.write(line(2, 'tools/call', { name: 'admin-visible', arguments: {} }));
      pipe.input.write(line(3, 'tools/call', { name: 'needs-user', arguments: {} }));
      pipe.input.write(line(4, 'tools/call', { name: 'wrapped', arguments: { n: 4 } }));
      const [initialized, denied, unauthorized, wrapped] = [await pipe.out.response(1), await pipe.out.response(2), await pipe.out.response(3), await pipe.out.response(4)];
      expect(initialized.result.protocolVersion).toBe(LEGACY_PROTOCOL_VERSION);
      for (const [message, method] of [[initialized, 'initialize'], [denied], [unauthorized], [wrapped, 'tools/call']] as const) assertLegacyServerMessage(message, method);
      expect(denied.error).toEqual({ code: -31003, message: 'Forbidden resource' });
      expect(unauthorized.error).toEqual({ code: -31001, message: 'Who are you?' });
      expect(wrapped.result.structuredContent).toEqual({ wrapped: { doubled: 8 }, tool: 'wrapped' });
      expect(seen.guard.map((entry) => [entry.name, entry.hasHttp])).toEqual([['admin-visible', false]]);
      expect(seen.interceptor).toEqual([{ name: 'wrapped', result: { doubled: 8 } }]);
      expect(seen.handlerRuns).toEqual([]);
    } finally {
      await pipe.server.close();
    }
  });
});

/** The same enhancers in the 2025 era over HTTP: initialize → Mcp-Session-Id → tools/call. */
describe('Nest enhancers in a 2025 session over HTTP (e2e)', () => {
  let started: StartedApp;
  let sessionId: string;
  let nextId = 100;

  beforeAll(async () => {
    started = await startApp([EnhancersFixtureModule]);
    const opened = await openLegacySession(started.url);
    expect(opened.status).toBe(200);
    sessionId = opened.sessionId;
    const initialized = await postMcp(started.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
    expect(initialized.status).toBe(202);
  });
  afterAll(async () => {
    await started?.app.close();
  });
  beforeEach(() => {
    seen.reset();
  });

  /** A request of the session (no 2026-07-28 `_meta`), its response checked against the 2025-11-25 schema. */
  async function request(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Json> {
    const response = await postMcp(started.url, { jsonrpc: '2.0', id: nextId++, method, params }, { headers: { ...legacySessionHeaders(sessionId), ...headers }, skipSchema: true });
    expect(response.status).toBe(200);
    assertLegacyServerMessage(response.body, method);
    return response.body;
  }

  const call = (name: string, args: Record<string, unknown> = {}, headers: Record<string, string> = {}) => request('tools/call', { name, arguments: args }, headers);

  it('a class guard allows with the header of the POST and denies without it (-31003, handler not run)', async () => {
    const allowed = await call('admin-visible', {}, ADMIN);
    expect(allowed.result.content).toEqual([{ type: 'text', text: 'visible ran' }]);
    expect(seen.guard).toEqual([
      { type: 'mcp', kind: 'tool', name: 'admin-visible', probe: false, args: {}, hasContext: true, hasHttp: true, method: 'tools/call' },
    ]);
    const denied = await call('admin-visible');
    expect(denied.error).toEqual({ code: -31003, message: 'Forbidden resource' });
    expect(seen.handlerRuns).toEqual(['admin-visible']);
  });

  it('a guard throwing UnauthorizedException → -31001 with its message', async () => {
    expect((await call('needs-user')).error).toEqual({ code: -31001, message: 'Who are you?' });
    expect((await call('needs-user', {}, { 'x-user': 'ada' })).result.content).toEqual([{ type: 'text', text: 'hello user' }]);
    expect(seen.handlerRuns).toEqual(['needs-user']);
  });

  it('a request-scoped guard gets the HTTP request of each POST of the session', async () => {
    // friends-only is hideWhenDenied: a stranger cannot find it, in a session either.
    expect((await call('friends-only', {}, { 'x-caller': 'stranger' })).error).toEqual({ code: -32602, message: 'Unknown tool: friends-only' });
    expect((await call('friends-only', {}, { 'x-caller': 'friend' })).result.content).toEqual([{ type: 'text', text: 'hi friend' }]);
  });

  it("an interceptor sees the handler's raw return value and its replacement becomes the result", async () => {
    const response = await call('wrapped', { n: 21 });
    expect(seen.interceptor).toEqual([{ name: 'wrapped', result: { doubled: 42 } }]);
    expect(response.result.structuredContent).toEqual({ wrapped: { doubled: 42 }, tool: 'wrapped' });
  });

  it('a request-scoped interceptor sees its own POST, also for concurrent calls of one session', async () => {
    const callers = ['c1', 'c2', 'c3', 'c4'];
    const results = await Promise.all(callers.map((caller) => call('stamped', {}, { 'x-caller': caller })));
    expect(results.map((response) => response.result.content[0].text)).toEqual(callers.map((caller) => `stamped (seen by ${caller})`));
  });

  it('tools/list of the session hides a denied hideWhenDenied tool and lists it for the admin', async () => {
    const names = async (headers: Record<string, string> = {}) => (await request('tools/list', {}, headers)).result.tools.map((tool: Json) => tool.name);
    expect(await names()).not.toContain('admin-hidden');
    expect(await names(ADMIN)).toContain('admin-hidden');
  });

  it('the v1 SDK client: an allowed call returns the result; a denied one rejects with McpError -31003', async () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new ClientV1({ name: 'enhancers-v1', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(started.url), { requestInit: { headers } }));
      return client;
    };
    const admin = await connect(ADMIN);
    const anonymous = await connect({});
    try {
      expect((await admin.callTool({ name: 'admin-visible', arguments: {} })).content).toEqual([{ type: 'text', text: 'visible ran' }]);
      const refused = await anonymous.callTool({ name: 'admin-visible', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(-31003);
      expect(seen.handlerRuns).toEqual(['admin-visible']);
    } finally {
      await Promise.all([admin.close(), anonymous.close()]);
    }
  });
});
