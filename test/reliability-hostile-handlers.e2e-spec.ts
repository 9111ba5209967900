import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { callMcp, postMcp, rpc, startApp, type Json, type McpHttpResponse, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertResultResponse } from './support/wire-schema.js';
import { HOSTILE_HANDLERS_MODULE, RecordingLogger, SECRET_DETAIL, STACK_FRAME } from './src/hostile-handlers.fixture.js';

/*
 * Hostile input aimed at the handlers (tools, prompts, resources, completions), over real HTTP.
 * Each case checks the JSON-RPC code and HTTP status, that nothing internal reaches the client,
 * what the server logged, and that a normal call still works afterwards.
 */

const INTERNAL_REF = /^Internal error \(ref ([0-9a-f]{16})\)$/;
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype'];

describe('hostile input to handlers over real HTTP (e2e)', () => {
  const logger = new RecordingLogger();
  let started: StartedApp;
  let echoes = 0;

  beforeAll(async () => {
    started = await startApp([HOSTILE_HANDLERS_MODULE], '/mcp', [], logger);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  beforeEach(() => {
    logger.entries.length = 0;
  });

  const call = (method: string, params: Record<string, unknown>) => callMcp(started.url, method, params);

  /** After every case: a normal tools/call still succeeds. */
  async function stillServes(): Promise<void> {
    const message = `still here ${++echoes}`;
    const reply = await call('tools/call', { name: 'echo', arguments: { message } });
    expect(reply.status).toBe(200);
    assertResultResponse(reply.body, 'CallToolResult');
    expect(reply.body.result.content).toEqual([{ type: 'text', text: message }]);
  }

  /** A client-caused error: at most one short log line, never a stack and never at error level. */
  function expectQuietLog(): void {
    expect(logger.entries.filter((entry) => entry.level === 'error' || entry.level === 'fatal')).toEqual([]);
    expect(logger.entries.filter((entry) => STACK_FRAME.test(entry.text))).toEqual([]);
    expect(logger.entries.length).toBeLessThanOrEqual(1);
  }

  function expectNoLeak(reply: McpHttpResponse): void {
    expect(reply.text).not.toContain('db.internal');
    expect(reply.text).not.toContain('/srv/app');
    expect(reply.text).not.toContain('SELECT');
    expect(reply.text).not.toMatch(/\n\s+at |\.ts:\d/);
  }

  /** The internal failure is logged once, at error level, with the reference, the detail and a stack. */
  function expectLoggedWithRef(ref: string): void {
    const mentions = logger.entries.filter((entry) => entry.text.includes(ref));
    expect(mentions).toHaveLength(1);
    expect(mentions[0].level).toBe('error');
    expect(mentions[0].text).toContain(SECRET_DETAIL);
    expect(mentions[0].text).toMatch(STACK_FRAME);
  }

  function refOf(message: string): string {
    const match = INTERNAL_REF.exec(message);
    expect(match).not.toBeNull();
    return match![1];
  }

  describe('hole 3: thrown errors never reach the client verbatim', () => {
    it('a tool throwing an Error → isError with a generic message and a reference; logged with that reference and the stack', async () => {
      const reply = await call('tools/call', { name: 'leak', arguments: {} });
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'CallToolResult');
      expect(reply.body.result.isError).toBe(true);
      expect(reply.body.result.content).toHaveLength(1);
      expectLoggedWithRef(refOf(reply.body.result.content[0].text));
      expectNoLeak(reply);
      await stillServes();
    });

    it('a 5xx HttpException is a server fault too: generic message, logged', async () => {
      const reply = await call('tools/call', { name: 'server-fault', arguments: {} });
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'CallToolResult');
      expect(reply.body.result.isError).toBe(true);
      expectLoggedWithRef(refOf(reply.body.result.content[0].text));
      expectNoLeak(reply);
      await stillServes();
    });

    it('McpToolError is thrown on purpose: its message is the tool result, nothing is logged', async () => {
      const reply = await call('tools/call', { name: 'refuse', arguments: {} });
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'CallToolResult');
      expect(reply.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Order 42 has already shipped; it cannot be changed' }] });
      expect(logger.entries).toEqual([]);
      await stillServes();
    });

    it('a 4xx HttpException is an answer: its message is the tool result, nothing is logged', async () => {
      const reply = await call('tools/call', { name: 'missing', arguments: {} });
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'CallToolResult');
      expect(reply.body.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No order 42' }] });
      expect(logger.entries).toEqual([]);
      await stillServes();
    });

    it.each([
      ['prompts/get', { name: 'leaky-prompt', arguments: {} }],
      ['resources/read', { uri: 'leaky://resource' }],
      ['resources/read', { uri: 'leaky://items/7' }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'count', value: '1' } }],
    ])('%s failing inside the handler → 500 / -32603 with a generic message and a reference, logged with it', async (method, params) => {
      const reply = await call(method, params);
      expect(reply.status).toBe(500);
      assertErrorResponse(reply.body, -32603);
      expectLoggedWithRef(refOf(reply.body.error.message));
      expectNoLeak(reply);
      await stillServes();
    });
  });

  // -32602 with HTTP 200, as every invalid-params answer but a malformed _meta (see the table of docs/reference/errors.md).
  describe('hole 4: prototype keys inside DTO arguments are invalid params, not server errors', () => {
    const shipments: Array<[string, Json]> = [
      ['constructor at the top', { recipient: 'Ada', constructor: { name: 'x' } }],
      ['__proto__ at the top', JSON.parse('{"recipient":"Ada","__proto__":{"polluted":true}}')],
      ['prototype at the top', { recipient: 'Ada', prototype: { polluted: true } }],
      ['constructor in a nested DTO', { recipient: 'Ada', address: { city: 'Oslo', constructor: 'x' } }],
      ['__proto__ in a nested DTO', JSON.parse('{"recipient":"Ada","address":{"city":"Oslo","__proto__":{"polluted":true}}}')],
      ['constructor in an undeclared object', { recipient: 'Ada', extra: { constructor: 1 } }],
      ['constructor.prototype in an undeclared object', { recipient: 'Ada', extra: { constructor: { prototype: { polluted: true } } } }],
    ];

    it.each(shipments.map(([name, args]) => ({ name, args })))('$name → -32602, HTTP 200, a quiet log', async ({ args }) => {
      const body = rpc('tools/call', { name: 'ship', arguments: {} });
      // JSON.stringify keeps an own "__proto__" key, so the server parses exactly what the case says.
      const reply = await postMcp(started.url, body, { rawBody: JSON.stringify({ ...body, params: { ...body.params, arguments: args } }) });
      expect(reply.status).toBe(200);
      assertErrorResponse(reply.body, -32602);
      expect(reply.body.error.message).toMatch(/constructor|__proto__|prototype/);
      expectQuietLog();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await stillServes();
    });

    it("the sample's create-user DTO with a constructor key → -32602, HTTP 200", async () => {
      const reply = await call('tools/call', { name: 'create-user', arguments: { name: 'Ada', email: 'ada@example.com', constructor: { name: 'Admin' } } });
      expect(reply.status).toBe(200);
      assertErrorResponse(reply.body, -32602);
      expectQuietLog();
      await stillServes();
    });

    it('the same keys in a DTO-less tool are passed through harmlessly', async () => {
      const reply = await call('tools/call', { name: 'echo', arguments: { message: 'plain', constructor: 'x', toString: 'y' } });
      expect(reply.status).toBe(200);
      expect(reply.body.result.content).toEqual([{ type: 'text', text: 'plain' }]);
      expectQuietLog();
    });
  });

  describe('hole 5: names that are Object.prototype members are unknown names', () => {
    // users://{id}/profile is the sample's template, whose handler looked ids up in an object literal.
    const unknownNames = PROTOTYPE_NAMES.flatMap((name) => [
      { method: 'tools/call', name, params: { name, arguments: {} }, error: { code: -32602, message: `Unknown tool: ${name}` } },
      { method: 'prompts/get', name, params: { name, arguments: {} }, error: { code: -32602, message: `Unknown prompt: ${name}` } },
      { method: 'resources/read', name, params: { uri: name }, error: { code: -32602, message: 'Resource not found', data: { uri: name } } },
      {
        method: 'resources/read',
        name: `users://${name}/profile`,
        params: { uri: `users://${name}/profile` },
        error: { code: -32602, message: 'Resource not found', data: { uri: `users://${name}/profile` } },
      },
    ]);

    it.each(unknownNames)('$method "$name" → $error.message', async ({ method, params, error }) => {
      const reply = await call(method, params);
      expect(reply.status).toBe(200);
      assertErrorResponse(reply.body, -32602);
      expect(reply.body.error).toEqual(error);
      expectQuietLog();
      await stillServes();
    });

    it.each(PROTOTYPE_NAMES)("the sample's framework completion with language %s → no values", async (language) => {
      const reply = await call('completion/complete', {
        ref: { type: 'ref/prompt', name: 'code-review' },
        argument: { name: 'framework', value: '' },
        context: { arguments: { language } },
      });
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'CompleteResult');
      expect(reply.body.result.completion.values).toEqual([]);
      expectQuietLog();
      await stillServes();
    });

    it.each(PROTOTYPE_NAMES)('completion for argument "%s" of a prompt and of an unknown prompt "%s"', async (name) => {
      const known = await call('completion/complete', { ref: { type: 'ref/prompt', name: 'code-review' }, argument: { name, value: '' } });
      expect(known.status).toBe(200);
      assertResultResponse(known.body, 'CompleteResult');
      expect(known.body.result.completion.values).toEqual([]);
      const unknown = await call('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'x', value: '' } });
      assertErrorResponse(unknown.body, -32602);
      expect(unknown.body.error.message).toBe(`Unknown prompt: ${name}`);
      expectQuietLog();
      await stillServes();
    });

    it('prompt arguments named like prototype members are unknown arguments, passed through as sent', async () => {
      const reply = await postMcp(
        started.url,
        rpc('prompts/get', { name: 'pick', arguments: {} }),
        { rawBody: JSON.stringify(rpc('prompts/get', { name: 'pick', arguments: JSON.parse('{"count":"3","constructor":"x","__proto__":"y"}') })) },
      );
      expect(reply.status).toBe(200);
      assertResultResponse(reply.body, 'GetPromptResult');
      expect(reply.body.result.messages[0].content.text).toBe('picked 3');
      expectQuietLog();
    });
  });
});
