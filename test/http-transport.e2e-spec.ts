import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../sample/app.module.js';
import { createHttpApp, onFastify } from './support/http-adapter.js';
import { TransportFixtureModule } from './src/transport-fixture.module.js';
import { callMcp, postMcp, rpc, standardMeta, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertMatchesDef, assertResultResponse } from './support/wire-schema.js';

const SAMPLE_SERVER_INFO = { name: 'nest-mcp-sample', version: '0.1.0', title: 'nest-mcp sample server' };
const SAMPLE_INSTRUCTIONS = 'Demo tools of nest-mcp: greetings, users, progress and elicitation.';

/** A body that is not built by `rpc()` still gets the version header a conforming client sends. */
const VERSION_HEADER = { 'mcp-protocol-version': '2026-07-28' };

/** A POST through node:http, where every header (Host, no Accept, raw bytes) is under the test's control. */
function rawPost(target: string, body: string, headers: Record<string, string | Buffer>): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(target, { method: 'POST', headers: headers as Record<string, string> }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function expectJsonRpcError(response: Awaited<ReturnType<typeof postMcp>>, status: number, code: number, id?: string | number): Json {
  expect(response.status).toBe(status);
  expect(response.contentType).toMatch(/^application\/json/);
  expect(response.messages).toHaveLength(1);
  const message = response.body;
  assertErrorResponse(message, code);
  expect(message.jsonrpc).toBe('2.0');
  expect(message.error.code).toBe(code);
  expect(typeof message.error.message).toBe('string');
  expect(message.error.message.length).toBeGreaterThan(0);
  if (id === undefined) expect(message).not.toHaveProperty('id');
  else expect(message.id).toBe(id);
  return message;
}

describe('Streamable HTTP transport (sample app on a real port)', () => {
  let started: StartedApp;
  let url: string;

  beforeAll(async () => {
    started = await startApp([AppModule]);
    url = started.url;
  });

  afterAll(async () => {
    await started?.app.close();
  });

  /** After every error the endpoint still serves a normal request. */
  async function expectStillServing(): Promise<void> {
    const response = await callMcp(url, 'server/discover');
    expect(response.status).toBe(200);
    assertResultResponse(response.body, 'DiscoverResult');
  }

  describe('server/discover', () => {
    it('answers 200 application/json with a schema-valid DiscoverResult', async () => {
      const body = rpc('server/discover', {}, { id: 'discover-1' });
      const response = await postMcp(url, body);
      expect(response.status).toBe(200);
      expect(response.contentType).toMatch(/^application\/json/);
      const message = response.body;
      assertResultResponse(message, 'DiscoverResult');
      expect(message.id).toBe('discover-1');
      expect(message.result).toEqual({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: expect.objectContaining({ tools: expect.any(Object) }),
        instructions: SAMPLE_INSTRUCTIONS,
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': SAMPLE_SERVER_INFO },
      });
    });

    it('echoes a numeric id and never sets a session id', async () => {
      const response = await postMcp(url, rpc('server/discover', {}, { id: 77 }), { headers: { 'mcp-session-id': 'abc' } });
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(77);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    });

    it('puts serverInfo in the _meta of tools/list and tools/call results too', async () => {
      const list = await callMcp(url, 'tools/list');
      assertResultResponse(list.body, 'ListToolsResult');
      expect(list.body.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': SAMPLE_SERVER_INFO });
      const call = await callMcp(url, 'tools/call', { name: 'echo', arguments: { message: 'hi' } });
      assertResultResponse(call.body, 'CallToolResult');
      expect(call.body.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': SAMPLE_SERVER_INFO });
    });
  });

  describe('HTTP method, Accept and Content-Type', () => {
    afterEach(expectStillServing);

    it.each(['GET', 'DELETE'])('%s → 405 with Allow: POST', async (method) => {
      const response = await fetch(url, { method, headers: { accept: 'application/json, text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      const text = await response.text();
      if (text) assertErrorResponse(JSON.parse(text));
    });

    it.each([
      ['application/json only', 'application/json'],
      ['text/event-stream only', 'text/event-stream'],
      ['text/html', 'text/html'],
    ])('Accept %s → 406', async (_label, accept) => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { accept } });
      expectJsonRpcError(response, 406, -32600);
    });

    it('a missing Accept header → 406', async () => {
      // fetch adds "Accept: */*" on its own, so this one goes through node:http.
      const body = rpc('server/discover');
      const response = await rawPost(url, JSON.stringify(body), {
        'content-type': 'application/json',
        ...VERSION_HEADER,
        'mcp-method': 'server/discover',
      });
      expect(response.status).toBe(406);
      assertErrorResponse(JSON.parse(response.text), -32600);
    });

    it('Accept with parameters and q-values is understood', async () => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { accept: 'application/json;q=0.9, text/event-stream;q=0.8' } });
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'DiscoverResult');
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded'])('Content-Type %s → 415', async (contentType) => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { 'content-type': contentType } });
      expectJsonRpcError(response, 415, -32600);
    });

    it('Content-Type application/json; charset=utf-8 is accepted', async () => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(response.status).toBe(200);
    });
  });

  describe('JSON-RPC envelope', () => {
    afterEach(expectStillServing);

    it('malformed JSON → -32700 / 400 without id', async () => {
      const response = await postMcp(url, undefined, { rawBody: '{"jsonrpc": "2.0", "id": 1, "method": ', headers: { ...VERSION_HEADER, 'mcp-method': 'server/discover' } });
      expectJsonRpcError(response, 400, -32700);
    });

    it('a batch array → -32600 / 400', async () => {
      const body = [rpc('server/discover'), rpc('tools/list')];
      const response = await postMcp(url, body, { headers: { ...VERSION_HEADER, 'mcp-method': 'server/discover' } });
      expectJsonRpcError(response, 400, -32600);
      expect(response.body.error.message).toMatch(/batch/i);
    });

    it('a posted JSON-RPC result response → -32600 / 400 with its id', async () => {
      const body = { jsonrpc: '2.0', id: 5, result: { resultType: 'complete' } };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32600, 5);
    });

    it('a posted JSON-RPC error response → -32600 / 400', async () => {
      const body = { jsonrpc: '2.0', id: 'e1', error: { code: -32603, message: 'x' } };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32600, 'e1');
    });

    it('jsonrpc "1.0" → -32600 / 400', async () => {
      const body = { ...rpc('server/discover', {}, { id: 9 }), jsonrpc: '1.0' };
      const response = await postMcp(url, body);
      expectJsonRpcError(response, 400, -32600, 9);
    });

    it('a missing jsonrpc member → -32600 / 400', async () => {
      const { jsonrpc: _ignored, ...body } = rpc('server/discover', {}, { id: 10 });
      const response = await postMcp(url, body);
      expectJsonRpcError(response, 400, -32600, 10);
    });

    it('a non-object body (a JSON string) → -32600 / 400', async () => {
      const response = await postMcp(url, undefined, { rawBody: '"hello"', headers: VERSION_HEADER });
      expect([400]).toContain(response.status);
      assertErrorResponse(response.body);
      expect([-32600, -32700]).toContain(response.body.error.code);
    });

    it('an id of null → -32600 / 400', async () => {
      const body = { ...rpc('server/discover'), id: null };
      const response = await postMcp(url, body);
      expectJsonRpcError(response, 400, -32600);
    });

    it('params that are not an object → -32602 / 400', async () => {
      const body = { jsonrpc: '2.0', id: 11, method: 'tools/list', params: [1, 2] };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32602, 11);
    });

    it('a notification → 202 with an empty body, headers not required', async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'x' } }),
      });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });
  });

  describe('per-request _meta envelope', () => {
    afterEach(expectStillServing);

    it('params missing entirely → -32602 / 400 with the id echoed', async () => {
      const body = { jsonrpc: '2.0', id: 'no-params', method: 'server/discover' };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32602, 'no-params');
    });

    it('_meta missing → -32602 / 400 with the id echoed', async () => {
      const body = { jsonrpc: '2.0', id: 'no-meta', method: 'server/discover', params: {} };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32602, 'no-meta');
    });

    it('_meta without protocolVersion → -32602 / 400', async () => {
      const meta = standardMeta();
      delete meta['io.modelcontextprotocol/protocolVersion'];
      const body = { jsonrpc: '2.0', id: 21, method: 'server/discover', params: { _meta: meta } };
      const response = await postMcp(url, body, { headers: VERSION_HEADER });
      expectJsonRpcError(response, 400, -32602, 21);
    });

    it('_meta without clientCapabilities → -32602 / 400', async () => {
      const meta = standardMeta();
      delete meta['io.modelcontextprotocol/clientCapabilities'];
      const body = { jsonrpc: '2.0', id: 22, method: 'tools/list', params: { _meta: meta } };
      const response = await postMcp(url, body);
      expectJsonRpcError(response, 400, -32602, 22);
    });

    it('clientCapabilities that is not an object → -32602 / 400', async () => {
      const response = await postMcp(url, rpc('server/discover', {}, { id: 23, meta: { 'io.modelcontextprotocol/clientCapabilities': 'all' } }));
      expectJsonRpcError(response, 400, -32602, 23);
    });

    it('clientInfo absent → 200 (clientInfo is optional)', async () => {
      const meta = standardMeta();
      delete meta['io.modelcontextprotocol/clientInfo'];
      const body = { jsonrpc: '2.0', id: 24, method: 'server/discover', params: { _meta: meta } };
      const response = await postMcp(url, body);
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'DiscoverResult');
      expect(response.body.id).toBe(24);
    });

    it('unknown capability fields are tolerated', async () => {
      const meta = { 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {}, elicitation: {}, somethingNew: { x: 1 } } };
      const response = await postMcp(url, rpc('tools/list', {}, { meta }));
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'ListToolsResult');
    });

    it('an unsupported version (header and _meta v999.0.0) → -32022 / 400 with data {supported, requested}', async () => {
      const response = await postMcp(url, rpc('server/discover', {}, { id: 31, meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } }));
      const message = expectJsonRpcError(response, 400, -32022, 31);
      assertMatchesDef(message, 'UnsupportedProtocolVersionError');
      expect(message.error.data).toEqual({ supported: ['2026-07-28'], requested: 'v999.0.0' });
      const discover = await callMcp(url, 'server/discover');
      for (const version of message.error.data.supported) expect(discover.body.result.supportedVersions).toContain(version);
    });

    it('an older known version (2025-11-25) is rejected with -32022 too', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 32, meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }));
      const message = expectJsonRpcError(response, 400, -32022, 32);
      expect(message.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
    });

    it('header 2026-07-28 with _meta v999.0.0 → -32020 / 400 (header mismatch comes before the version check)', async () => {
      const body = rpc('server/discover', {}, { id: 33, meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } });
      const response = await postMcp(url, body, { headers: { 'mcp-protocol-version': '2026-07-28' } });
      const message = expectJsonRpcError(response, 400, -32020, 33);
      assertMatchesDef(message, 'HeaderMismatchError');
    });
  });

  describe('standard request headers (SEP-2243)', () => {
    afterEach(expectStillServing);

    it('missing MCP-Protocol-Version → -32020 / 400', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 41 }), { headers: { 'mcp-protocol-version': undefined } });
      expectJsonRpcError(response, 400, -32020, 41);
      expect(response.body.error.message).toMatch(/MCP-Protocol-Version/i);
    });

    it('MCP-Protocol-Version v999.0.0 with _meta 2026-07-28 → -32020 / 400', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 42 }), { headers: { 'mcp-protocol-version': 'v999.0.0' } });
      expectJsonRpcError(response, 400, -32020, 42);
    });

    it('missing Mcp-Method → -32020 / 400', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 43 }), { headers: { 'mcp-method': undefined } });
      expectJsonRpcError(response, 400, -32020, 43);
      expect(response.body.error.message).toMatch(/Mcp-Method/i);
    });

    it('Mcp-Method naming another method → -32020 / 400', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 44 }), { headers: { 'mcp-method': 'server/discover' } });
      expectJsonRpcError(response, 400, -32020, 44);
    });

    it('Mcp-Method in other case (TOOLS/LIST) → -32020 / 400: values are case-sensitive', async () => {
      const response = await postMcp(url, rpc('tools/list', {}, { id: 45 }), { headers: { 'mcp-method': 'TOOLS/LIST' } });
      expectJsonRpcError(response, 400, -32020, 45);
    });

    it('tools/call without Mcp-Name → -32020 / 400', async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 46 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': undefined } });
      expectJsonRpcError(response, 400, -32020, 46);
      expect(response.body.error.message).toMatch(/Mcp-Name/i);
    });

    it('Mcp-Name naming another tool → -32020 / 400', async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 47 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': 'hello' } });
      expectJsonRpcError(response, 400, -32020, 47);
    });

    it('Mcp-Name in other case → -32020 / 400', async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 48 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': 'ECHO' } });
      expectJsonRpcError(response, 400, -32020, 48);
    });

    it('Mcp-Name in the Base64 sentinel form is decoded and accepted', async () => {
      const sentinel = `=?base64?${Buffer.from('echo', 'utf8').toString('base64')}?=`;
      expect(sentinel).toBe('=?base64?ZWNobw==?=');
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'via sentinel' } }, { id: 49 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': sentinel } });
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result.content).toEqual([{ type: 'text', text: 'via sentinel' }]);
    });

    it('a sentinel that decodes to another name → -32020 / 400', async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 50 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': `=?base64?${Buffer.from('hello').toString('base64')}?=` } });
      expectJsonRpcError(response, 400, -32020, 50);
    });

    it.each(['=?base64?!!!not-base64!!!?=', '=?base64?ZW=ob==?='])('a sentinel with invalid Base64 (%s) → -32020 / 400', async (value) => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 51 });
      const response = await postMcp(url, body, { headers: { 'mcp-name': value } });
      expectJsonRpcError(response, 400, -32020, 51);
    });

    it('a plain Mcp-Name with non-ASCII bytes (invalid characters) → -32020 / 400', async () => {
      const body = rpc('tools/call', { name: 'echo', arguments: { message: 'x' } }, { id: 52 });
      const headers = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...VERSION_HEADER,
        'mcp-method': 'tools/call',
        'mcp-name': Buffer.from('ech\u00f6', 'latin1').toString('latin1'),
      };
      const response = await rawPost(url, JSON.stringify(body), headers);
      expect(response.status).toBe(400);
      const message = JSON.parse(response.text);
      assertErrorResponse(message, -32020);
      expect(message.id).toBe(52);
    });

    it('Mcp-Name is not required on methods without a name (tools/list)', async () => {
      const response = await postMcp(url, rpc('tools/list'), { headers: { 'mcp-name': undefined } });
      expect(response.status).toBe(200);
    });
  });

  describe('methods', () => {
    afterEach(expectStillServing);

    it('an unknown method → -32601 / 404', async () => {
      const response = await postMcp(url, rpc('unknown/method', {}, { id: 61 }));
      expectJsonRpcError(response, 404, -32601, 61);
    });

    it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'tasks/list'])(
      'the removed method %s → -32601 / 404',
      async (method) => {
        const params: Record<string, unknown> =
          method === 'initialize'
            ? { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
            : method === 'logging/setLevel'
              ? { level: 'info' }
              : method.startsWith('resources/')
                ? { uri: 'test://x' }
                : {};
        const response = await postMcp(url, rpc(method, params, { id: `removed-${method}` }));
        expectJsonRpcError(response, 404, -32601, `removed-${method}`);
      },
    );

    it('capabilities match reality: prompts/list and resources/list answer only when advertised', async () => {
      const discover = await callMcp(url, 'server/discover');
      const capabilities = discover.body.result.capabilities;
      for (const [method, capability] of [['prompts/list', 'prompts'], ['resources/list', 'resources']]) {
        const response = await postMcp(url, rpc(method, {}, { id: method }));
        if (capability in capabilities) expect(response.status).toBe(200);
        else expectJsonRpcError(response, 404, -32601, method);
      }
    });
  });

  describe('Origin (DNS-rebinding protection)', () => {
    afterEach(expectStillServing);

    it.each(['http://evil.example.com', 'https://localhost.evil.example.com', 'null'])('Origin %s → 403', async (origin) => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { origin } });
      expect(response.status).toBe(403);
      assertErrorResponse(response.body);
      expect(response.body).not.toHaveProperty('id');
    });

    it.each(['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080', 'https://localhost'])('Origin %s → 200', async (origin) => {
      const response = await postMcp(url, rpc('server/discover'), { headers: { origin } });
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'DiscoverResult');
    });

    it('evil Host and evil Origin together → 403 (the conformance probe); the real localhost pair → 200', async () => {
      const body = JSON.stringify(rpc('server/discover'));
      const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...VERSION_HEADER, 'mcp-method': 'server/discover' };
      const evil = await rawPost(url, body, { ...headers, host: 'evil.example.com', origin: 'http://evil.example.com' });
      expect(evil.status).toBe(403);
      const port = new URL(url).port;
      const good = await rawPost(url, body, { ...headers, host: `localhost:${port}`, origin: `http://localhost:${port}` });
      expect(good.status).toBe(200);
      assertResultResponse(JSON.parse(good.text), 'DiscoverResult');
    });
  });

  describe('response stream (JSON vs SSE)', () => {
    it('answers application/json when no notification precedes the response', async () => {
      const response = await callMcp(url, 'tools/call', { name: 'process', arguments: { data: 'abc' } });
      expect(response.status).toBe(200);
      expect(response.contentType).toMatch(/^application\/json/);
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result.structuredContent).toEqual({ result: 'Done: processed 3 characters' });
    });

    it('switches to text/event-stream when progress comes first, one JSON message per event, response last', async () => {
      const body = rpc('tools/call', { name: 'process', arguments: { data: 'abcdef' } }, { id: 'sse-1', meta: { progressToken: 'p-1' } });
      const response = await postMcp(url, body);
      expect(response.status).toBe(200);
      expect(response.contentType).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const events = response.text.split('\n\n').filter(Boolean);
      for (const event of events) expect(event).toMatch(/^event: message\ndata: \{.*\}$/);
      const notifications = response.messages.slice(0, -1);
      expect(notifications.map((message: Json) => message.params)).toEqual([
        { progressToken: 'p-1', progress: 1, total: 3, message: 'parsed' },
        { progressToken: 'p-1', progress: 2, total: 3, message: 'transformed' },
        { progressToken: 'p-1', progress: 3, total: 3, message: 'stored' },
      ]);
      for (const notification of notifications) assertMatchesDef(notification, 'ProgressNotification');
      const last = response.messages.at(-1);
      assertResultResponse(last, 'CallToolResult');
      expect(last.id).toBe('sse-1');
      expect(last.result.structuredContent).toEqual({ result: 'Done: processed 6 characters' });
    });
  });
});

describe('Streamable HTTP transport (custom endpoint, origins and caching)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([TransportFixtureModule], '/rpc/mcp');
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('serves on the configured endpoint with the configured cache hints and serverInfo', async () => {
    const response = await callMcp(started.url, 'server/discover');
    expect(response.status).toBe(200);
    assertResultResponse(response.body, 'DiscoverResult');
    expect(response.body.result).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: expect.objectContaining({ tools: expect.any(Object) }),
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'transport-fixture', version: '3.1.4' } },
    });
    const list = await callMcp(started.url, 'tools/list');
    assertResultResponse(list.body, 'ListToolsResult');
    expect(list.body.result.ttlMs).toBe(60000);
    expect(list.body.result.cacheScope).toBe('public');
  });

  it('does not serve the default /mcp path', async () => {
    const response = await postMcp(`${started.baseUrl}/mcp`, rpc('server/discover'), { skipSchema: true });
    expect(response.status).toBe(404);
  });

  it('an explicit allow-list admits its origin and refuses localhost', async () => {
    const allowed = await postMcp(started.url, rpc('server/discover'), { headers: { origin: 'https://app.example.com' } });
    expect(allowed.status).toBe(200);
    const localhost = await postMcp(started.url, rpc('server/discover'), { headers: { origin: 'http://localhost:3000' } });
    expect(localhost.status).toBe(403);
    const noOrigin = await postMcp(started.url, rpc('server/discover'));
    expect(noOrigin.status).toBe(200);
  });
});

/** Records the Content-Type each HTTP request reached the guards with. */
@Injectable()
class ContentTypeProbe implements CanActivate {
  static readonly seen: unknown[] = [];
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; raw?: { headers: Record<string, unknown> } }>();
      ContentTypeProbe.seen.push((request.raw ?? request).headers['content-type']);
    }
    return true;
  }
}

describe('Streamable HTTP transport (the body is read once, by the endpoint)', () => {
  // On Express the edge is a middleware ahead of the application's parsers, which then skip the read body.
  it("the application's own JSON parser never runs for the endpoint (Fastify), and guards still see the request's headers", async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule], providers: [{ provide: APP_GUARD, useClass: ContentTypeProbe }] }).compile();
    // What an application may do: its own JSON parser instead of Nest's (counting its runs here).
    const app = createHttpApp(moduleRef, { logger: false, bodyParser: !onFastify });
    let appParserRuns = 0;
    if (onFastify) {
      const fastify = app.getHttpAdapter().getInstance();
      fastify.removeContentTypeParser('application/json');
      fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) => {
        appParserRuns++;
        done(null, JSON.parse(body));
      });
    }
    await app.listen(0, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
      ContentTypeProbe.seen.length = 0;
      const response = await callMcp(url, 'tools/call', { name: 'echo', arguments: { message: 'once' } });
      expect(response.status).toBe(200);
      assertResultResponse(response.body, 'CallToolResult');
      expect(response.body.result.content).toEqual([{ type: 'text', text: 'once' }]);
      expect(appParserRuns).toBe(0);
      expect(ContentTypeProbe.seen).toEqual(['application/json']);
    } finally {
      await app.close();
    }
  });
});
