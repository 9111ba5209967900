import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Module, Post, type LoggerService } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { McpRegistry } from '../lib/index.js';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { leaksInternals, ReliabilityFixtureModule, release, run, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';
import { PATIENCE_MS, until } from './support/waiting.js';

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
  const response = await fetch(url, { method, headers, signal: AbortSignal.timeout(PATIENCE_MS), body: method === 'POST' ? (options.raw ?? JSON.stringify(body)) : undefined });
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

/** Keeps every server log line, so a test can assert that client-caused errors log no stack trace. */
class CapturingLogger implements LoggerService {
  lines: string[] = [];
  private keep = (...parts: unknown[]) => {
    this.lines.push(parts.map((part) => (part instanceof Error ? String(part.stack) : String(part))).join(' '));
  };
  log = this.keep;
  error = this.keep;
  warn = this.keep;
  debug = this.keep;
  verbose = this.keep;
  fatal = this.keep;
  /** Lines holding a stack frame (`\n    at …`). */
  stacks(): string[] {
    return this.lines.filter((line) => /\n\s+at /.test(line));
  }
}

/** Sends raw bytes over a fresh socket and resolves with everything the server answered (until it closes). */
function rawExchange(port: number, head: string, body: Buffer | string = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (chunk) => {
      parts.push(chunk);
      // A 100 Continue would be followed by a wait for the body: stop there.
      if (Buffer.concat(parts).toString('latin1').startsWith('HTTP/1.1 100')) socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
    socket.write(head);
    if (body.length > 0) socket.write(body);
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
  const logger = new CapturingLogger();

  /** After every case: a normal tools/call still succeeds, and nothing the client caused logged a stack trace. */
  async function stillServes(): Promise<void> {
    const message = `still here ${++echoes}`;
    const reply = await send(url, toolCall('echo', { message }));
    expect(reply.status).toBe(200);
    expect(reply.json.result.content).toEqual([{ type: 'text', text: message }]);
    expect(logger.stacks()).toEqual([]);
  }

  async function roundOne(userId: string): Promise<string> {
    const reply = await send(url, toolCall('upgrade-plan', { userId }));
    expect(reply.status).toBe(200);
    expect(reply.json.result.resultType).toBe('input_required');
    return reply.json.result.requestState as string;
  }

  const PLAN = { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } };

  beforeAll(async () => {
    started = await startReliabilityApp({ mrtr: { maxStateLength: MAX_STATE_LENGTH, maxInputResponses: MAX_INPUT_RESPONSES }, logger });
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

    // Valid JSON that is not an object is a parsable message that is not a request: -32600, not -32700.
    it.each([
      ['a JSON string', '"tools/list"'],
      ['JSON null', 'null'],
      ['a number', '42'],
      ['true', 'true'],
    ])('%s as the body → HTTP 400 / -32600', async (_name, raw) => {
      expectError(await send(url, undefined, { raw, headersFrom: rpc('tools/list') }), 400, -32600);
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
      // A fault in the tool is the server's, not the client's: its full log entry is wanted.
      logger.lines = [];
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

    it("a body over the application's own parser limit (3 MB) → 413 / -32600 as JSON-RPC", async () => {
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

  describe('the HTTP edge', () => {
    const cancelsForSmallIds = async () => {
      for (let requestId = 0; requestId <= 20; requestId++) {
        const body = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'not yours' } };
        expect((await send(url, body)).status).toBe(202);
      }
    };

    it("notifications/cancelled from another connection does not touch a victim's tools/call (202, the victim gets its result)", async () => {
      const tag = 'victim-call';
      // Held until every cancel was answered: they all land on a call in flight.
      const pending = send(url, toolCall('held', { tag, steps: 1 }, {}, 7));
      await until(() => run(tag).entered, 'the victim call to start', () => run(tag));
      await cancelsForSmallIds();
      release(tag);
      const reply = await pending;
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: `held ${tag} done` }] } });
      expect(run(tag).aborted).toBe(false);
      await stillServes();
    });

    it("notifications/cancelled from another connection does not end a victim's subscriptions/listen stream", async () => {
      const body = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 5 });
      const closing = new AbortController();
      const response = await fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: closing.signal });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      /** The next SSE event's data (keep-alive comments skipped), or undefined once the stream ended. */
      const nextEvent = async (): Promise<Json> => {
        for (;;) {
          const end = buffered.indexOf('\n\n');
          if (end !== -1) {
            const event = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const data = event.split('\n').find((line) => line.startsWith('data: '));
            if (data) return JSON.parse(data.slice(6));
            continue;
          }
          const { value, done } = await reader.read();
          if (done) return undefined;
          buffered += decoder.decode(value, { stream: true });
        }
      };
      expect((await nextEvent())?.method).toBe('notifications/subscriptions/acknowledged');
      await cancelsForSmallIds();
      started.app.get(McpRegistry).addTool({ name: 'added-after-cancels', description: 'proves the listen stream is alive' }, () => 'ok');
      expect((await nextEvent())?.method).toBe('notifications/tools/list_changed');
      closing.abort();
      await stillServes();
    });

    it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toLocaleString', '__defineGetter__'])(
      'method %s (an Object.prototype name) → 404 / -32601',
      async (method) => {
        const reply = await send(url, rpc(method, {}, { id: `m-${method}` }));
        expectError(reply, 404, -32601, `m-${method}`);
        expect(reply.text).not.toMatch(/native code|function/);
        await stillServes();
      },
    );

    it.each([
      ['1e400', '1e400'],
      ['-1e400', '-1e400'],
      ['18446744073709551617', '18446744073709551617'],
      ['2^53 + 1', '9007199254740993'],
    ])('id %s (not exactly a JSON number) → 400 / -32600 without an id', async (_name, id) => {
      const raw = JSON.stringify(rpc('tools/list', {}, { id: 'ID' })).replace('"ID"', id);
      const reply = await send(url, undefined, { raw, headersFrom: rpc('tools/list') });
      expectError(reply, 400, -32600);
      await stillServes();
    });

    it.each([
      ['charset=latin9', 'application/json; charset=latin9', 415, -32600],
      ['charset=utf-16', 'application/json; charset=utf-16', 415, -32600],
    ])('Content-Type with %s (%s) → HTTP %d / %d', async (_name, contentType, status, code) => {
      expectError(await send(url, toolCall('echo', { message: 'cs' }), { headers: { 'content-type': contentType } }), status, code);
      await stillServes();
    });

    it('Content-Type with charset=UTF-8 is served', async () => {
      const reply = await send(url, toolCall('echo', { message: 'utf8' }), { headers: { 'content-type': 'application/json; charset="UTF-8"' } });
      expect(reply.json.result.content).toEqual([{ type: 'text', text: 'utf8' }]);
    });

    it.each([
      ['broken gzip', 'gzip', 400, -32700],
      ['broken br', 'br', 400, -32700],
      ['an unknown encoding', 'compress', 415, -32600],
    ])('a body with %s Content-Encoding (%s) → HTTP %d / %d', async (_name, encoding, status, code) => {
      const reply = await send(url, undefined, { raw: 'not compressed at all', headersFrom: rpc('tools/list'), headers: { 'content-encoding': encoding } });
      expectError(reply, status, code);
      await stillServes();
    });

    it('a gzip body is still served', async () => {
      const body = toolCall('echo', { message: 'zipped' });
      const headers = { ...standardHeaders(body), 'content-encoding': 'gzip' };
      const response = await fetch(url, { method: 'POST', headers, body: gzipSync(JSON.stringify(body)) });
      expect(((await response.json()) as Json).result.content).toEqual([{ type: 'text', text: 'zipped' }]);
    });

    it.each(['PUT', 'PATCH', 'OPTIONS'])('%s → 405 / -32600 with Allow: POST', async (method) => {
      const reply = await send(url, undefined, { method });
      expectError(reply, 405, -32600);
      expect(reply.headers.get('allow')).toBe('POST');
      await stillServes();
    });

    it('a foreign Origin is refused (403) before a malformed, oversized or deep body is read', async () => {
      const origin = { origin: 'https://evil.example' };
      expectError(await send(url, undefined, { raw: '{"jsonrpc":', headersFrom: rpc('tools/list'), headers: origin }), 403, -32600);
      expectError(await send(url, toolCall('echo', { message: 'x'.repeat(1_100_000) }), { headers: origin }), 403, -32600);
      const deep = '{"x":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}';
      expectError(await rawHttp(url, [deep.slice(0, 10_000), deep.slice(10_000)], { ...standardHeaders(rpc('tools/list')), ...origin }), 403, -32600);
      await stillServes();
    });

    it('a chunked body nested 20 000 deep → 400 / -32600 (no 500, no stack in the log)', async () => {
      const raw = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}}';
      expectError(await rawHttp(url, [raw.slice(0, 10_000), raw.slice(10_000)], standardHeaders(rpc('tools/list'))), 400, -32600);
      await stillServes();
    });

    it('an oversized chunked upload is answered 413 without the server reading it to the end', async () => {
      const total = 48 * 1024 * 1024;
      const reply = await new Promise<{ status: number; text: string; written: number }>((resolve, reject) => {
        let written = 0;
        let answered = false;
        const req = httpRequest(url, { method: 'POST', headers: { ...standardHeaders(rpc('tools/list')), 'transfer-encoding': 'chunked' } }, (res) => {
          answered = true;
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => parts.push(chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString(), written });
            // The server would drain the rest (up to its bound); this client gives up instead.
            req.destroy();
          });
        });
        req.on('error', (error) => (answered ? undefined : reject(error)));
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (!answered && written < total) {
            written += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!answered) req.end();
        };
        req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"');
        pump();
      });
      expect({ status: reply.status, code: JSON.parse(reply.text).error.code }).toEqual({ status: 413, code: -32600 });
      expect(reply.written).toBeLessThan(total);
      await stillServes();
    });

    it('Expect: 100-continue with a Content-Length over the limit → 413 at once, no 100 Continue', async () => {
      const head = [
        'POST /mcp HTTP/1.1',
        `Host: 127.0.0.1:${started.port}`,
        ...Object.entries(standardHeaders(rpc('tools/list'))).map(([name, value]) => `${name}: ${value}`),
        'Content-Length: 50000000',
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n');
      const answer = await rawExchange(started.port, head);
      expect(answer).not.toMatch(/^HTTP\/1\.1 100/);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe(-32600);
      await stillServes();
    });

    it('Expect: 100-continue on an acceptable request gets 100 Continue, then its answer', async () => {
      const body = toolCall('echo', { message: 'continued' });
      const payload = JSON.stringify(body);
      const text = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(url, { method: 'POST', headers: { ...standardHeaders(body), expect: '100-continue', 'content-length': String(Buffer.byteLength(payload)) } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => parts.push(chunk));
          res.on('end', () => resolve(Buffer.concat(parts).toString()));
        });
        req.on('error', reject);
        req.on('continue', () => req.end(payload));
      });
      expect(JSON.parse(text).result.content).toEqual([{ type: 'text', text: 'continued' }]);
    });

    it('the HTTP server has request and header timeouts well under Node’s 300 s default, checked every second (not every 30 s)', () => {
      const server = started.app.getHttpServer();
      expect({ requestTimeout: server.requestTimeout, headersTimeout: server.headersTimeout, checkedEvery: server.connectionsCheckingInterval }).toEqual({
        requestTimeout: 30_000,
        headersTimeout: 10_000,
        checkedEvery: 1_000,
      });
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

/** An ordinary JSON route of the application, beside the MCP endpoint. */
@Controller('echo-body')
class EchoBodyController {
  @Post()
  echo(@Body() body: unknown): unknown {
    return { received: body };
  }
}

@Module({ imports: [ReliabilityFixtureModule.forRoot()], controllers: [EchoBodyController] })
class FixtureWithJsonRoute {}

describe("hostile input with the application's JSON parser limited to 100 kB (Express's default) (e2e)", () => {
  let started: ReliabilityApp;

  beforeAll(async () => {
    started = await startReliabilityApp({ bodyLimit: 100_000 }, FixtureWithJsonRoute);
  });

  it("the application's other routes keep its own parser and limit: 50 kB parsed, 200 kB → 413", async () => {
    const post = (text: string) =>
      fetch(started.url.replace(/\/mcp$/, '/echo-body'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    const parsed = await post('p'.repeat(50_000));
    expect(parsed.status).toBe(201);
    expect(((await parsed.json()) as Json).received.text).toHaveLength(50_000);
    expect((await post('p'.repeat(200_000))).status).toBe(413);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it("the endpoint reads its own body: a 200 kB body is served (module limit, not the application's 100 kB), 1.1 MB → 413 / -32600", async () => {
    const served = await send(started.url, toolCall('echo', { message: 'v'.repeat(200_000) }));
    expect(served.json.result.content[0].text).toHaveLength(200_000);
    expectError(await send(started.url, toolCall('echo', { message: 'v'.repeat(1_100_000) })), 413, -32600);
    const reply = await send(started.url, toolCall('echo', { message: 'ok' }));
    expect(reply.json.result.content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('malformed JSON → 400 / -32700 as JSON-RPC', async () => {
    expectError(await send(started.url, undefined, { raw: '{"a":', headersFrom: rpc('tools/list') }), 400, -32700);
  });
});
