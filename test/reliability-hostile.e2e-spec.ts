import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { leaksInternals, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

const MAX_STATE_LENGTH = 4096;
const MAX_INPUT_RESPONSES = 4;

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

/** POSTs `body` (a value, serialized, or `raw` text) with the standard headers for `headersFrom`, overridden by `headers`. */
async function send(url: string, body: Json, options: { raw?: string; headersFrom?: Json; headers?: Record<string, string | undefined>; method?: string } = {}): Promise<Raw> {
  const headers: Record<string, string> = standardHeaders(options.headersFrom ?? body);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const method = options.method ?? 'POST';
  const response = await fetch(url, { method, headers, signal: AbortSignal.timeout(5000), body: method === 'POST' ? (options.raw ?? JSON.stringify(body)) : undefined });
  const text = await response.text();
  let json: Json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A raw POST over node:http: exactly `headers`; more than one chunk → Transfer-Encoding: chunked (no Content-Length). */
function rawHttp(url: string, chunks: string[], headers: Record<string, string>): Promise<Raw> {
  const framing = chunks.length > 1 ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(chunks[0] ?? '')) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, ...framing } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json: Json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), text, json });
      });
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

function expectError(reply: Raw, status: number, code: number, id?: string | number): void {
  expect({ status: reply.status, code: reply.json?.error?.code }).toEqual({ status, code });
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.json.jsonrpc).toBe('2.0');
  expect(typeof reply.json.error.message).toBe('string');
  expect(reply.json).not.toHaveProperty('result');
  if (id === undefined) expect(reply.json.id === undefined || reply.json.id === null).toBe(true);
  else expect(reply.json.id).toBe(id);
  expect(leaksInternals(reply.text)).toBeUndefined();
}

function toolCall(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, id?: string | number): Json {
  const body = rpc('tools/call', { name, arguments: args }, { id, meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } });
  Object.assign(body.params, extra);
  return body;
}

describe('hostile input over real HTTP (e2e)', () => {
  let started: ReliabilityApp;
  let url: string;
  let echoes = 0;

  /** After every case: a normal tools/call still succeeds. */
  async function stillServes(): Promise<void> {
    const message = `still here ${++echoes}`;
    const reply = await send(url, toolCall('echo', { message }));
    expect(reply.status).toBe(200);
    expect(reply.json.result.content).toEqual([{ type: 'text', text: message }]);
  }

  async function roundOne(userId: string): Promise<string> {
    const reply = await send(url, toolCall('upgrade-plan', { userId }));
    expect(reply.status).toBe(200);
    expect(reply.json.result.resultType).toBe('input_required');
    return reply.json.result.requestState as string;
  }

  const PLAN = { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } };

  beforeAll(async () => {
    started = await startReliabilityApp({ mrtr: { maxStateLength: MAX_STATE_LENGTH, maxInputResponses: MAX_INPUT_RESPONSES } });
    url = started.url;
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe('the JSON-RPC envelope', () => {
    const invalid: Array<[string, string, number, number, (string | number)?]> = [
      ['malformed JSON', '{"jsonrpc":"2.0","id":1,"method":', 400, -32700],
      ['a lone brace', '{', 400, -32700],
      ['trailing garbage', '{"jsonrpc":"2.0","id":1,"method":"tools/list"} x', 400, -32700],
      ['an empty body', '', 400, -32600],
      ['jsonrpc "1.0"', JSON.stringify({ ...rpc('tools/list', {}, { id: 11 }), jsonrpc: '1.0' }), 400, -32600, 11],
      ['jsonrpc 2 (a number)', JSON.stringify({ ...rpc('tools/list', {}, { id: 12 }), jsonrpc: 2 }), 400, -32600, 12],
      ['no jsonrpc member', JSON.stringify({ id: 13, method: 'tools/list', params: {} }), 400, -32600, 13],
      ['params an array', JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'tools/list', params: [1, 2] }), 400, -32602, 14],
      ['params a string', JSON.stringify({ jsonrpc: '2.0', id: 15, method: 'tools/list', params: 'x' }), 400, -32602, 15],
      ['params a number', JSON.stringify({ jsonrpc: '2.0', id: 16, method: 'tools/list', params: 5 }), 400, -32602, 16],
      ['params null', JSON.stringify({ jsonrpc: '2.0', id: 17, method: 'tools/list', params: null }), 400, -32602, 17],
      ['a batch of one request', JSON.stringify([rpc('tools/list')]), 400, -32600],
      ['an empty batch', '[]', 400, -32600],
      ['method a number', JSON.stringify({ jsonrpc: '2.0', id: 18, method: 7, params: {} }), 400, -32600, 18],
      ['id null', JSON.stringify({ ...rpc('tools/list'), id: null }), 400, -32600],
      ['id an object', JSON.stringify({ ...rpc('tools/list'), id: { a: 1 } }), 400, -32600],
      ['a posted result response', JSON.stringify({ jsonrpc: '2.0', id: 19, result: {} }), 400, -32600, 19],
    ];

    it.each(invalid.map(([name, raw, status, code, id]) => ({ name, raw, status, code, id })))('$name → HTTP $status / $code', async ({ raw, status, code, id }) => {
      const reply = await send(url, undefined, { raw, headersFrom: rpc('tools/list') });
      expectError(reply, status, code, id);
      await stillServes();
    });

    // express's strict JSON parser refuses top-level scalars as a parse error; either code is a fair answer.
    it.each([
      ['a JSON string', '"tools/list"'],
      ['JSON null', 'null'],
      ['a number', '42'],
      ['true', 'true'],
    ])('%s as the body → HTTP 400 / -32600 or -32700', async (_name, raw) => {
      const reply = await send(url, undefined, { raw, headersFrom: rpc('tools/list') });
      expect(reply.status).toBe(400);
      expect([-32600, -32700]).toContain(reply.json.error.code);
      expect(leaksInternals(reply.text)).toBeUndefined();
      await stillServes();
    });

    it('an unknown method → 404 / -32601 with the id', async () => {
      const body = rpc('tools/explode', {}, { id: 'unknown-1' });
      expectError(await send(url, body), 404, -32601, 'unknown-1');
      await stillServes();
    });

    it('an unknown tool → -32602 with the id', async () => {
      const body = toolCall('no-such-tool', {}, {}, 'unknown-tool');
      const reply = await send(url, body);
      expect(reply.json.error.code).toBe(-32602);
      expect(reply.json.id).toBe('unknown-tool');
      expect([200, 400, 404]).toContain(reply.status);
      expect(leaksInternals(reply.text)).toBeUndefined();
      await stillServes();
    });

    it('a tool that throws unexpectedly → a tool error result (isError), no stack trace or path', async () => {
      const reply = await send(url, toolCall('explode', {}, {}, 'boom'));
      expect(reply.status).toBe(200);
      expect(reply.json.id).toBe('boom');
      expect(reply.json.result.isError).toBe(true);
      expect(leaksInternals(reply.text)).toBeUndefined();
      expect(reply.text).not.toMatch(/reliability-fixture\.|TypeError: /);
      await stillServes();
    });

    it('bad cursors on tools/list → -32602', async () => {
      for (const cursor of ['garbage', '', 'eyJvZmZzZXQiOjk5OTk5fQ', 'A'.repeat(5000), 12, { offset: 1 }]) {
        const reply = await send(url, rpc('tools/list', { cursor }, { id: 'cursor' }));
        expect({ cursor: String(cursor).slice(0, 20), code: reply.json?.error?.code }).toEqual({ cursor: String(cursor).slice(0, 20), code: -32602 });
        expect([200, 400]).toContain(reply.status);
        expect(leaksInternals(reply.text)).toBeUndefined();
      }
      await stillServes();
    });

    it('tools/call with arguments that are not an object → -32602, not 500', async () => {
      for (const args of [[1, 2], 'text', 5, true]) {
        const reply = await send(url, { ...toolCall('echo', {}), params: { ...toolCall('echo', {}).params, arguments: args } });
        expect({ args, code: reply.json?.error?.code }).toEqual({ args, code: -32602 });
        expect(reply.status).toBe(200);
      }
      // null arguments read as "no arguments": a tool error about the missing property, not a fault.
      const reply = await send(url, { ...toolCall('echo', {}), params: { ...toolCall('echo', {}).params, arguments: null } });
      expect(reply.status).toBe(200);
      expect(reply.json.result.isError).toBe(true);
      await stillServes();
    });
  });

  describe('size and depth limits', () => {
    it('a body over 1 MiB (Content-Length) → 413 / -32600', async () => {
      const body = toolCall('echo', { message: 'x'.repeat(1_100_000) });
      expectError(await send(url, body), 413, -32600);
      await stillServes();
    });

    it('a body just under 1 MiB is served', async () => {
      const message = 'y'.repeat(1_000_000);
      const reply = await send(url, toolCall('echo', { message }));
      expect(reply.status).toBe(200);
      expect(reply.json.result.content[0].text.length).toBe(message.length);
    });

    it('a chunked body over 1 MiB (no Content-Length) → 413 / -32600', async () => {
      const body = toolCall('echo', { message: 'z'.repeat(1_100_000) });
      const text = JSON.stringify(body);
      const chunks = [text.slice(0, 500_000), text.slice(500_000)];
      const headers = standardHeaders(body);
      const reply = await rawHttp(url, chunks, headers);
      expectError(reply, 413, -32600);
      await stillServes();
    });

    it("a body over express's own parser limit (3 MB) → 413 / -32600 as JSON-RPC", async () => {
      const body = toolCall('echo', { message: 'w'.repeat(3_000_000) });
      expectError(await send(url, body), 413, -32600);
      await stillServes();
    });

    it('a body nested 100 deep → 400 / -32600', async () => {
      const deep = '['.repeat(100) + ']'.repeat(100);
      const raw = JSON.stringify(toolCall('echo', { message: 'deep' })).replace('"deep"', deep);
      expectError(await send(url, undefined, { raw, headersFrom: toolCall('echo', {}) }), 400, -32600);
      await stillServes();
    });

    it('objects nested 100 deep in params → 400 / -32600', async () => {
      let nested: Json = { leaf: true };
      for (let i = 0; i < 100; i++) nested = { n: nested };
      expectError(await send(url, toolCall('echo', { message: nested })), 400, -32600);
      await stillServes();
    });

    it('a body nested 50 000 deep neither overflows the stack nor crashes → 400', async () => {
      const raw = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}}';
      const reply = await send(url, undefined, { raw, headersFrom: rpc('tools/list') });
      expect(reply.status).toBe(400);
      expect([-32600, -32700]).toContain(reply.json.error.code);
      expect(leaksInternals(reply.text)).toBeUndefined();
      await stillServes();
    });
  });

  describe('content types and headers', () => {
    const body = () => toolCall('echo', { message: 'hi' }, {}, 'hdr');
    const body_ = body;
    const cases: Array<[string, Record<string, string | undefined>, number, number, (string | number)?]> = [
      ['Content-Type text/plain', { 'content-type': 'text/plain' }, 415, -32600],
      ['no Content-Type', { 'content-type': undefined }, 415, -32600],
      ['Content-Type application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }, 415, -32600],
      ['Content-Type application/jsonx', { 'content-type': 'application/jsonx' }, 415, -32600],
      ['Content-Type multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }, 415, -32600],
      ['an empty Accept', { accept: '' }, 406, -32600],
      ['Accept application/json only', { accept: 'application/json' }, 406, -32600],
      ['Accept text/event-stream only', { accept: 'text/event-stream' }, 406, -32600],
      ['Accept text/html', { accept: 'text/html' }, 406, -32600],
      ['no MCP-Protocol-Version', { 'mcp-protocol-version': undefined }, 400, -32020, 'hdr'],
      ['MCP-Protocol-Version contradicting _meta', { 'mcp-protocol-version': '2025-11-25' }, 400, -32020, 'hdr'],
      ['no Mcp-Method', { 'mcp-method': undefined }, 400, -32020, 'hdr'],
      ['Mcp-Method contradicting the body', { 'mcp-method': 'tools/list' }, 400, -32020, 'hdr'],
      ['no Mcp-Name', { 'mcp-name': undefined }, 400, -32020, 'hdr'],
      ['Mcp-Name contradicting the body', { 'mcp-name': 'hello' }, 400, -32020, 'hdr'],
      ['Mcp-Name with a broken Base64 sentinel', { 'mcp-name': '=?base64?!!!?=' }, 400, -32020, 'hdr'],
      ['a disallowed Origin', { origin: 'https://evil.example' }, 403, -32600],
      ['Origin "null"', { origin: 'null' }, 403, -32600],
    ];

    it.each(cases.map(([name, headers, status, code, id]) => ({ name, headers, status, code, id })))('$name → HTTP $status / $code', async ({ headers, status, code, id }) => {
      expectError(await send(url, body(), { headers }), status, code, id);
      await stillServes();
    });

    it('no Accept header at all (node:http; fetch would add */*) → 406 / -32600', async () => {
      const body = body_();
      const headers = standardHeaders(body);
      delete headers.accept;
      expectError(await rawHttp(url, [JSON.stringify(body)], headers), 406, -32600);
      await stillServes();
    });

    it('GET and DELETE → 405 with Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const reply = await send(url, undefined, { method });
        expect(reply.status).toBe(405);
        expect(reply.headers.get('allow')).toBe('POST');
        expect(reply.json.error.code).toBe(-32600);
      }
      await stillServes();
    });
  });

  describe('requestState tokens', () => {
    it('a tampered token (one character changed) → -32602', async () => {
      const token = await roundOne('u-tamper');
      const middle = Math.floor(token.length / 2);
      const tampered = token.slice(0, middle) + (token[middle] === 'A' ? 'B' : 'A') + token.slice(middle + 1);
      const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-tamper' }, { inputResponses: PLAN, requestState: tampered }, 'tamper'));
      expectError(reply, 200, -32602, 'tamper');
      expect(reply.json.error.message).toMatch(/requestState/);
      await stillServes();
    });

    it('a truncated token → -32602', async () => {
      const token = await roundOne('u-trunc');
      for (const cut of [token.slice(0, -1), token.slice(0, -7), token.slice(0, 20), token.slice(0, 1)]) {
        const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-trunc' }, { inputResponses: PLAN, requestState: cut }, 'trunc'));
        expectError(reply, 200, -32602, 'trunc');
      }
      await stillServes();
    });

    it(`an oversized token (> maxStateLength ${MAX_STATE_LENGTH}) → -32602`, async () => {
      const token = await roundOne('u-big');
      const oversized = token + 'A'.repeat(MAX_STATE_LENGTH);
      const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-big' }, { inputResponses: PLAN, requestState: oversized }, 'big'));
      expectError(reply, 200, -32602, 'big');
      expect(reply.json.error.message).toMatch(/longer than 4096/);
      await stillServes();
    });

    it('a token replayed for other arguments → -32602', async () => {
      const token = await roundOne('u-alice');
      const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-mallory' }, { inputResponses: PLAN, requestState: token }, 'replay'));
      expectError(reply, 200, -32602, 'replay');
      await stillServes();
    });

    it('a token replayed for another tool → -32602', async () => {
      const token = await roundOne('u-other-tool');
      const reply = await send(url, toolCall('onboard', {}, { inputResponses: PLAN, requestState: token }, 'other-tool'));
      expectError(reply, 200, -32602, 'other-tool');
      await stillServes();
    });

    it('tokens that are not tokens → -32602', async () => {
      for (const requestState of ['', 'not base64!', '====', 12345, { forged: true }, ['a'], true]) {
        const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-junk' }, { inputResponses: PLAN, requestState }, 'junk'));
        expect({ requestState, code: reply.json?.error?.code }).toEqual({ requestState, code: -32602 });
        expect(reply.status).not.toBe(500);
        expect(leaksInternals(reply.text)).toBeUndefined();
      }
      await stillServes();
    });

    it(`too many inputResponses (> ${MAX_INPUT_RESPONSES}) → -32602`, async () => {
      const token = await roundOne('u-many');
      const inputResponses: Record<string, unknown> = {};
      for (let i = 1; i <= MAX_INPUT_RESPONSES + 1; i++) inputResponses[`elicitation-${i}`] = { action: 'accept', content: { plan: 'pro' } };
      const reply = await send(url, toolCall('upgrade-plan', { userId: 'u-many' }, { inputResponses, requestState: token }, 'many'));
      expectError(reply, 200, -32602, 'many');
      expect(reply.json.error.message).toMatch(/Too many inputResponses/);
      await stillServes();
    });

    it('the legitimate round trip still completes after all that', async () => {
      const token = await roundOne('u-good');
      const round2 = await send(url, toolCall('upgrade-plan', { userId: 'u-good' }, { inputResponses: PLAN, requestState: token }));
      expect(round2.json.result.resultType).toBe('input_required');
      const round3 = await send(
        url,
        toolCall('upgrade-plan', { userId: 'u-good' }, { inputResponses: { 'elicitation-2': { action: 'accept', content: { confirmed: true } } }, requestState: round2.json.result.requestState }),
      );
      expect(round3.json.result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
    });
  });
});

describe("hostile input with Nest's default 100 kb JSON parser (e2e)", () => {
  let started: ReliabilityApp;

  beforeAll(async () => {
    started = await startReliabilityApp({ bodyLimit: null });
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('a 200 kB body → 413 / -32600 as JSON-RPC (the body-parser error is mapped), then a normal call works', async () => {
    const body = toolCall('echo', { message: 'v'.repeat(200_000) });
    expectError(await send(started.url, body), 413, -32600);
    const reply = await send(started.url, toolCall('echo', { message: 'ok' }));
    expect(reply.json.result.content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('malformed JSON → 400 / -32700 as JSON-RPC', async () => {
    expectError(await send(started.url, undefined, { raw: '{"a":', headersFrom: rpc('tools/list') }), 400, -32700);
  });
});
