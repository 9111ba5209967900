import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpTest, type McpTestClient } from 'nest-mcp/testing';
import { AppModule } from '../sample/app.module.js';
import { PIXEL_PNG, TransportDuplicateToolsModule, TransportToolsFixtureModule } from './src/transport-tools.fixture.js';
import { callMcp, postMcp, rpc, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertMatchesDef, assertResultResponse } from './support/wire-schema.js';

const FIXTURE_SAMPLE_TOOLS = ['hello', 'echo', 'notify', 'shout', 'create-user', 'process', 'onboard', 'upgrade-plan', 'wizard'];
// The sample's provider tools, then the routes of its REST controller (sample/rest/), also tools.
const SAMPLE_TOOLS = [...FIXTURE_SAMPLE_TOOLS, 'quarterly-report', 'forecast', 'notes_list', 'notes_get', 'notes_create', 'notes_update', 'notes_delete', 'notes_import'];
const FIXTURE_TOOLS = [
  ...FIXTURE_SAMPLE_TOOLS,
  'add',
  'full-result',
  'picture',
  'later',
  'stream',
  'explode',
  'repeat',
  'gallery',
  'count',
  'no-args',
  'whoami',
  'transient-ping',
];
const FIXTURE_SERVER_INFO = { name: 'tools-fixture', version: '2.0.0' };

/** Calls a tool and returns its (schema-checked) CallToolResult. */
async function callTool(url: string, name: string, args?: Record<string, unknown>, headers?: Record<string, string>): Promise<Json> {
  const params: Record<string, unknown> = { name };
  if (args !== undefined) params.arguments = args;
  const response = await postMcp(url, rpc('tools/call', params), { headers });
  expect(response.status).toBe(200);
  expect(response.contentType).toMatch(/^application\/json/);
  assertResultResponse(response.body, 'CallToolResult');
  expect(response.body.result.resultType).toBe('complete');
  expect(response.body.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': FIXTURE_SERVER_INFO });
  const { _meta, ...result } = response.body.result;
  return result;
}

async function listAll(url: string): Promise<{ pages: Json[][]; cursors: string[] }> {
  const pages: Json[][] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard++) {
    const response = await callMcp(url, 'tools/list', cursor === undefined ? {} : { cursor });
    expect(response.status).toBe(200);
    assertResultResponse(response.body, 'ListToolsResult');
    pages.push(response.body.result.tools);
    cursor = response.body.result.nextCursor;
    if (cursor === undefined) return { pages, cursors };
    expect(typeof cursor).toBe('string');
    cursors.push(cursor);
  }
  throw new Error('tools/list pagination never ended');
}

describe('tools on the sample AppModule', () => {
  let started: StartedApp;
  let client: McpTestClient;

  beforeAll(async () => {
    started = await startApp([AppModule]);
    client = await McpTest.createClient(started.app);
  });

  afterAll(async () => {
    await client?.close();
    await started?.app.close();
  });

  it('lists every sample tool in discovery order on one page (default page size 100)', async () => {
    const response = await callMcp(started.url, 'tools/list');
    assertResultResponse(response.body, 'ListToolsResult');
    const { result } = response.body;
    expect(result.tools.map((tool: Json) => tool.name)).toEqual(SAMPLE_TOOLS);
    expect(result).not.toHaveProperty('nextCursor');
    expect(result.ttlMs).toBe(0);
    expect(result.cacheScope).toBe('private');
    for (const tool of result.tools) assertMatchesDef(tool, 'Tool');
  });

  it('describes a DTO argument class as a JSON Schema with properties, required and descriptions', async () => {
    const createUser = (await client.listTools()).find((tool) => tool.name === 'create-user');
    expect(createUser).toEqual({
      name: 'create-user',
      description: 'Creates a user from a validated DTO and returns it',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 2, description: 'Display name' },
          email: { type: 'string', format: 'email', description: 'Email address' },
          age: { type: 'integer', minimum: 0, maximum: 150, description: 'Age in years' },
          role: { type: 'string', enum: ['admin', 'member'], description: 'Role in the team' },
        },
        required: ['name', 'email'],
      },
    });
  });

  it('gives a DTO return type an outputSchema, and named parameters a generated inputSchema', async () => {
    const tools = await client.listTools();
    const hello = tools.find((tool) => tool.name === 'hello');
    expect(hello).toEqual({
      name: 'hello',
      description: 'Greets someone',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] },
      outputSchema: { type: 'object', properties: { message: { type: 'string', description: 'The greeting' } }, required: ['message'] },
    });
    expect(tools.find((tool) => tool.name === 'echo')).not.toHaveProperty('outputSchema');
  });

  it('calls the sample echo tool (string → one text block)', async () => {
    const response = await callMcp(started.url, 'tools/call', { name: 'echo', arguments: { message: 'hello there' } });
    assertResultResponse(response.body, 'CallToolResult');
    expect(response.body.result.content).toEqual([{ type: 'text', text: 'hello there' }]);
    expect(response.body.result).not.toHaveProperty('isError');
  });
});

describe('tools on a fixture module (page size 2, every return pattern, scopes)', () => {
  let started: StartedApp;
  let url: string;

  beforeAll(async () => {
    started = await startApp([TransportToolsFixtureModule]);
    url = started.url;
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe('tools/list', () => {
    it('walks nextCursor page by page (2 per page) to the end, in deterministic order', async () => {
      const { pages, cursors } = await listAll(url);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]);
      expect(pages.flat().map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
      expect(new Set(cursors).size).toBe(cursors.length);
      const again = await listAll(url);
      expect(again.cursors).toEqual(cursors);
      expect(again.pages).toEqual(pages);
    });

    it('a second app built from the same module lists the same order', async () => {
      const other = await startApp([TransportToolsFixtureModule]);
      try {
        const first = await listAll(other.url);
        expect(first.pages.flat().map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
      } finally {
        await other.app.close();
      }
    });

    it('a cursor from the middle resumes there', async () => {
      const { cursors } = await listAll(url);
      const response = await callMcp(url, 'tools/list', { cursor: cursors[4] });
      assertResultResponse(response.body, 'ListToolsResult');
      expect(response.body.result.tools.map((tool: Json) => tool.name)).toEqual(FIXTURE_TOOLS.slice(10, 12));
      expect(response.body.result.nextCursor).toBe(cursors[5]);
    });

    it.each([['garbage', 'not-a-cursor'], ['empty string', ''], ['a number', 2], ['an object', { offset: 2 }], ['tampered base64', Buffer.from('o:-1').toString('base64url')]])(
      'an invalid cursor (%s) → -32602',
      async (_label, cursor) => {
        const response = await postMcp(url, rpc('tools/list', { cursor }, { id: 'bad-cursor' }));
        expect(response.status).toBe(200);
        assertErrorResponse(response.body, -32602);
        expect(response.body.id).toBe('bad-cursor');
        expect(response.body.error.message).toMatch(/cursor/i);
      },
    );

    it('no-argument tools get {"type":"object","additionalProperties":false}', async () => {
      const { pages } = await listAll(url);
      const noArgs = pages.flat().find((tool) => tool.name === 'no-args');
      expect(noArgs.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    });
  });

  describe('return patterns', () => {
    it('string → one text block', async () => {
      expect(await callTool(url, 'echo', { message: 'plain' })).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'plain' }] });
    });

    it('void → empty content', async () => {
      expect(await callTool(url, 'notify', { message: 'ping' })).toEqual({ resultType: 'complete', content: [] });
    });

    it('a DTO instance → structuredContent plus the same JSON as text, matching the outputSchema', async () => {
      const result = await callTool(url, 'hello', { name: 'Ada' });
      expect(result).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: '{"message":"Hello, Ada!"}' }],
        structuredContent: { message: 'Hello, Ada!' },
      });
      const sum = await callTool(url, 'add', { a: 2, b: 40 });
      expect(sum).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } });
    });

    it('a plain object → structuredContent and text JSON (DTO arguments arrive as a DTO instance)', async () => {
      const result = await callTool(url, 'create-user', { name: 'Grace', email: 'grace@example.com', age: 36 });
      expect(result.structuredContent).toEqual({ id: expect.any(Number), name: 'Grace', email: 'grace@example.com', age: 36, role: 'member', isDto: true });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    });

    it('a bare number → structuredContent 3 and text "3"', async () => {
      expect(await callTool(url, 'count')).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '3' }], structuredContent: 3 });
    });

    it('a content block → that block (annotations kept)', async () => {
      expect(await callTool(url, 'shout', { message: 'quiet' })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'QUIET', annotations: { audience: ['user'], priority: 0.5 } }],
      });
      expect(await callTool(url, 'picture')).toEqual({ resultType: 'complete', content: [{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }] });
    });

    it('an array of content blocks → those blocks', async () => {
      expect(await callTool(url, 'gallery')).toEqual({
        resultType: 'complete',
        content: [
          { type: 'text', text: 'a picture:' },
          { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
        ],
      });
    });

    it('a full CallToolResult → as is, with resultType complete', async () => {
      expect(await callTool(url, 'full-result')).toEqual({
        resultType: 'complete',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
        structuredContent: { custom: true },
        isError: false,
      });
    });

    it('an async method resolves first', async () => {
      expect(await callTool(url, 'later', { value: 'v1' })).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'later: v1' }] });
    });

    it('an Observable resolves first', async () => {
      expect(await callTool(url, 'stream')).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: '{"streamed":42}' }],
        structuredContent: { streamed: 42 },
      });
    });
  });

  describe('arguments and errors', () => {
    it('DTO validation failure → isError:true naming the field (name too short)', async () => {
      expect(await callTool(url, 'create-user', { name: 'A', email: 'a@example.com' })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Invalid arguments: "name" must NOT have fewer than 2 characters' }],
        isError: true,
      });
    });

    it('DTO validation failure → isError:true naming the field (bad email)', async () => {
      const result = await callTool(url, 'create-user', { name: 'Alan', email: 'not-an-email' });
      expect(result.isError).toBe(true);
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      expect(result.content[0].text).toMatch(/"email"/);
      expect(result).not.toHaveProperty('structuredContent');
    });

    it('DTO validation failure → isError:true naming the field (class-validator @Min on a DTO)', async () => {
      const result = await callTool(url, 'repeat', { word: 'w', times: 0 });
      expect(result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Invalid arguments: "times" must be >= 1' }], isError: true });
      expect(await callTool(url, 'repeat', { word: 'ho', times: 3 })).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'ho ho ho' }] });
    });

    it('a named argument of the wrong type → isError:true naming the field', async () => {
      expect(await callTool(url, 'add', { a: 'one', b: 2 })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Invalid arguments: "a" must be number' }],
        isError: true,
      });
    });

    it('a missing required named argument → isError:true naming the field', async () => {
      expect(await callTool(url, 'add', { a: 1 })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Invalid arguments: missing required property "b"' }],
        isError: true,
      });
    });

    it('"arguments" missing is treated as {}', async () => {
      expect(await callTool(url, 'no-args')).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'nothing needed' }] });
      expect(await callTool(url, 'add')).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Invalid arguments: missing required property "a"; missing required property "b"' }],
        isError: true,
      });
    });

    it('an unexpected argument on a no-argument tool → isError:true naming it', async () => {
      expect(await callTool(url, 'no-args', { extra: 1 })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Invalid arguments: unexpected property "extra"' }],
        isError: true,
      });
    });

    it('a thrown Error → isError:true with a generic message and a reference: neither its message nor a stack', async () => {
      const result = await callTool(url, 'explode');
      expect(result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }], isError: true });
      expect(JSON.stringify(result)).not.toMatch(/\bat \w|\.ts:\d|Error:/);
    });

    it('an unknown tool → -32602 (a protocol error, not a tool result)', async () => {
      const response = await postMcp(url, rpc('tools/call', { name: 'no-such-tool', arguments: {} }, { id: 'unknown-tool' }));
      expect(response.status).toBe(200);
      assertErrorResponse(response.body, -32602);
      expect(response.body).toEqual({ jsonrpc: '2.0', id: 'unknown-tool', error: { code: -32602, message: 'Unknown tool: no-such-tool' } });
    });

    it('"arguments" that is not an object → -32602', async () => {
      const response = await postMcp(url, rpc('tools/call', { name: 'echo', arguments: ['x'] }, { id: 'args-array' }));
      assertErrorResponse(response.body, -32602);
      expect(response.body.id).toBe('args-array');
    });
  });

  describe('provider scopes', () => {
    it('a REQUEST-scoped provider gets the HTTP request injected and a fresh instance per call', async () => {
      const first = await callTool(url, 'whoami', {}, { 'x-caller': 'alice' });
      const second = await callTool(url, 'whoami', {}, { 'x-caller': 'bob' });
      expect(first.structuredContent).toEqual({ caller: 'alice', isHttpRequest: true, method: 'POST', instance: expect.any(Number) });
      expect(second.structuredContent).toEqual({ caller: 'bob', isHttpRequest: true, method: 'POST', instance: expect.any(Number) });
      expect(second.structuredContent.instance).not.toBe(first.structuredContent.instance);
    });

    it('concurrent calls to a REQUEST-scoped tool each see their own request', async () => {
      const callers = ['c1', 'c2', 'c3', 'c4', 'c5'];
      const results = await Promise.all(callers.map((caller) => callTool(url, 'whoami', {}, { 'x-caller': caller })));
      expect(results.map((result) => result.structuredContent.caller)).toEqual(callers);
      expect(new Set(results.map((result) => result.structuredContent.instance)).size).toBe(callers.length);
    });

    it("a transient provider's tool works on a constructed instance with its dependencies", async () => {
      const result = await callTool(url, 'transient-ping');
      expect(result.content).toHaveLength(1);
      expect(result.content[0].text).toMatch(/^pong from transient #\d+, billing injected$/);
    });
  });
});

describe('tool failures are logged', () => {
  it('a thrown Error is logged once, with its message, reference and stack, while the client sees only the reference', async () => {
    const entries: Array<{ level: string; text: string }> = [];
    const record = (level: string) => (...parts: unknown[]) => entries.push({ level, text: parts.map(String).join(' ') });
    const logger = { log: record('log'), error: record('error'), warn: record('warn'), debug: record('debug'), verbose: record('verbose'), fatal: record('fatal') };
    const client = await McpTest.createClient(TransportToolsFixtureModule, { logger });
    try {
      const { content } = await client.callTool('explode');
      expect(content).toEqual([{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }]);
      const ref = /ref ([0-9a-f]{16})/.exec((content[0] as { text: string }).text)![1];
      const mentions = entries.filter((entry) => entry.text.includes('The reactor is on fire'));
      expect(mentions).toHaveLength(1);
      expect(mentions[0].level).toBe('error');
      expect(mentions[0].text).toContain(ref);
      expect(mentions[0].text).toContain('explode');
      expect(mentions[0].text).toMatch(/\bat \S*explode/);
    } finally {
      await client.close();
    }
  });
});

describe('start-up checks', () => {
  it('duplicate tool names fail start-up with a message naming both classes', async () => {
    const { message } = await startupFailure([TransportDuplicateToolsModule]);
    expect(message).toContain('"same-name"');
    expect(message).toContain('FirstDuplicateTools');
    expect(message).toContain('SecondDuplicateTools');
  });
});
