import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { bootstrapStdio, type McpStdioServer } from '../lib/index.js';
import { MAX_ID_LENGTH } from '../lib/protocol/json-rpc-envelope.js';
import { LEGACY_PROTOCOL_VERSION, legacySessionHeaders, openLegacySession, postMcp, rpc, standardMeta, type Json } from './support/mcp-http.js';
import { JsonLines } from './support/waiting.js';
import { ReliabilityFixtureModule, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

const LONGEST = 'i'.repeat(MAX_ID_LENGTH);
const TOO_LONG = 'i'.repeat(MAX_ID_LENGTH + 1);
const MEGABYTE = 'i'.repeat(1_000_000);
const ID_REFUSED = { code: -32600, message: `Invalid Request: a string "id" must be at most ${MAX_ID_LENGTH} characters` };

describe(`string ids are at most ${MAX_ID_LENGTH} characters (e2e, HTTP)`, () => {
  let app: ReliabilityApp;

  beforeAll(async () => {
    app = await startReliabilityApp();
  });
  afterAll(async () => {
    await app?.app.close();
  });

  it.each([
    ['a 1 MB id', MEGABYTE],
    [`an id of ${MAX_ID_LENGTH + 1} characters`, TOO_LONG],
  ])('%s → HTTP 400 / -32600, not echoed', async (_case, id) => {
    const response = await postMcp(app.url, rpc('tools/list', {}, { id }), { skipSchema: true });
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { jsonrpc: '2.0', error: ID_REFUSED } });
  });

  it(`an id of ${MAX_ID_LENGTH} characters is served and echoed`, async () => {
    const response = await postMcp(app.url, rpc('tools/list', {}, { id: LONGEST }));
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(LONGEST);
    expect(response.body.result.tools.length).toBeGreaterThan(0);
  });

  it('in a 2025 session too (the envelope is read before the era)', async () => {
    const { sessionId } = await openLegacySession(app.url);
    const response = await postMcp(app.url, { jsonrpc: '2.0', id: MEGABYTE, method: 'tools/list', params: {} }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { jsonrpc: '2.0', error: ID_REFUSED } });
  });
});

describe(`string ids are at most ${MAX_ID_LENGTH} characters (e2e, stdio)`, () => {
  let server: McpStdioServer;
  let input: PassThrough;
  let out: JsonLines;

  beforeAll(async () => {
    input = new PassThrough();
    const output = new PassThrough();
    out = new JsonLines('the stdio server', output);
    server = await bootstrapStdio(ReliabilityFixtureModule.forRoot(), { input, output, logger: false, exitOnClose: false, handleSignals: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  const line = (id: string, method = 'tools/list', params: Json = { _meta: standardMeta() }) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

  it('a 1 MB id → -32600 with id null; an id at the limit is served; the pipe goes on', async () => {
    input.write(line(MEGABYTE));
    input.write(line(TOO_LONG));
    input.write(line(LONGEST));
    const served = await out.response(LONGEST);
    expect(served.result.tools.length).toBeGreaterThan(0);
    expect(out.messages.filter((message) => 'error' in message)).toEqual([
      { jsonrpc: '2.0', id: null, error: ID_REFUSED },
      { jsonrpc: '2.0', id: null, error: ID_REFUSED },
    ]);
    expect(Math.max(...out.lines.filter((text) => text.includes('"error"')).map((text) => text.length))).toBeLessThan(200);
  });

  it('the same in a 2025 pipe (opened by initialize)', async () => {
    const pipeInput = new PassThrough();
    const pipeOutput = new PassThrough();
    const pipeOut = new JsonLines('the 2025 pipe', pipeOutput);
    const pipe = await bootstrapStdio(ReliabilityFixtureModule.forRoot(), { input: pipeInput, output: pipeOutput, logger: false, exitOnClose: false, handleSignals: false });
    try {
      pipeInput.write(line('init', 'initialize', { protocolVersion: LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }));
      await pipeOut.response('init');
      pipeInput.write(line(MEGABYTE, 'tools/list', {}));
      pipeInput.write(line('after', 'tools/list', {}));
      await pipeOut.response('after');
      expect(pipeOut.messages.filter((message) => 'error' in message)).toEqual([{ jsonrpc: '2.0', id: null, error: ID_REFUSED }]);
    } finally {
      await pipe.close();
    }
  });
});
