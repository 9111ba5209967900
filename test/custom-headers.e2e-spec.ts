import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  FeaturesBadTokenHeaderModule,
  FeaturesDuplicateHeaderModule,
  FeaturesEmptyHeaderModule,
  FeaturesHeadersModule,
  FeaturesNumberHeaderModule,
} from './src/features-headers.fixture.js';
import { callMcp, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertResultResponse } from './support/wire-schema.js';

const ARGS = { region: 'us-west1', priority: 42, dryRun: true, note: 'hello' };
const HEADERS = { 'mcp-param-region': 'us-west1', 'mcp-param-priority': '42', 'mcp-param-dry-run': 'true' };

const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

async function route(url: string, args: Record<string, unknown>, headers: Record<string, string | undefined>): Promise<Json> {
  return callMcp(url, 'tools/call', { name: 'route', arguments: args }, { headers });
}

async function expectOk(url: string, args: Record<string, unknown>, headers: Record<string, string | undefined>): Promise<Json> {
  const response = await route(url, args, headers);
  expect(response.status).toBe(200);
  assertResultResponse(response.body, 'CallToolResult');
  expect(response.body.result.isError).toBeUndefined();
  return JSON.parse(response.body.result.content[0].text);
}

async function expectMismatch(url: string, args: Record<string, unknown>, headers: Record<string, string | undefined>): Promise<string> {
  const response = await route(url, args, headers);
  expect(response.status).toBe(400);
  assertErrorResponse(response.body, -32020);
  return response.body.error.message;
}

describe('x-mcp-header custom headers (SEP-2243)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesHeadersModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('annotates the mirrored properties of the inputSchema with x-mcp-header', async () => {
    const response = await callMcp(started.url, 'tools/list');
    assertResultResponse(response.body, 'ListToolsResult');
    expect(response.body.result.tools[0].inputSchema).toEqual({
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Target region', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        dryRun: { type: 'boolean', description: 'Dry run', 'x-mcp-header': 'Dry-Run' },
        note: { type: 'string', description: 'Not mirrored' },
        zone: { type: 'string', description: 'Optional zone', 'x-mcp-header': 'Zone' },
      },
      required: ['region', 'priority', 'dryRun', 'note'],
    });
  });

  it('accepts matching Mcp-Param-* headers', async () => {
    expect(await expectOk(started.url, ARGS, HEADERS)).toEqual({ ...ARGS, zone: null });
  });

  it('accepts an optional mirrored argument with its header, and without either', async () => {
    expect(await expectOk(started.url, { ...ARGS, zone: 'b' }, { ...HEADERS, 'mcp-param-zone': 'b' })).toEqual({ ...ARGS, zone: 'b' });
    // Value absent: the server must not expect the header (and ignores one sent anyway).
    expect(await expectOk(started.url, ARGS, { ...HEADERS, 'mcp-param-zone': 'ignored' })).toEqual({ ...ARGS, zone: null });
  });

  it('decodes the =?base64?…?= sentinel before comparing', async () => {
    const args = { ...ARGS, region: 'zürich ' };
    expect(await expectOk(started.url, args, { ...HEADERS, 'mcp-param-region': b64('zürich ') })).toEqual({ ...args, zone: null });
    // A plain value may also be sent encoded.
    expect(await expectOk(started.url, ARGS, { ...HEADERS, 'mcp-param-region': b64('us-west1') })).toEqual({ ...ARGS, zone: null });
  });

  it('a different value is 400 with -32020', async () => {
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': 'eu-central1' })).toContain('Mcp-Param-Region');
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': 'US-WEST1' })).toContain('Mcp-Param-Region');
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': b64('eu-central1') })).toContain('Mcp-Param-Region');
  });

  it('a missing header for a present value is 400 with -32020', async () => {
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': undefined })).toContain('Mcp-Param-Region');
    expect(await expectMismatch(started.url, { ...ARGS, zone: 'b' }, HEADERS)).toContain('Mcp-Param-Zone');
  });

  it('invalid Base64 in the sentinel is 400 with -32020', async () => {
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': '=?base64?not base64!?=' })).toContain('Base64');
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-region': '=?base64?dXMtd2VzdDE?=' })).toContain('Base64');
  });

  it('a raw non-ASCII header value is 400 with -32020', async () => {
    const args = { ...ARGS, region: 'café' };
    // latin-1 bytes on the wire; the server must not take them as the body value.
    expect(await expectMismatch(started.url, args, { ...HEADERS, 'mcp-param-region': 'caf\u00e9' })).toContain('Mcp-Param-Region');
  });

  it('compares integers numerically', async () => {
    expect(await expectOk(started.url, ARGS, { ...HEADERS, 'mcp-param-priority': '42.0' })).toEqual({ ...ARGS, zone: null });
    expect(await expectOk(started.url, { ...ARGS, priority: -7 }, { ...HEADERS, 'mcp-param-priority': '-7' })).toEqual({ ...ARGS, priority: -7, zone: null });
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-priority': '43' })).toContain('Mcp-Param-Priority');
    expect(await expectMismatch(started.url, ARGS, { ...HEADERS, 'mcp-param-priority': 'forty-two' })).toContain('Mcp-Param-Priority');
  });

  it('compares booleans as "true" / "false"', async () => {
    const args = { ...ARGS, dryRun: false };
    expect(await expectOk(started.url, args, { ...HEADERS, 'mcp-param-dry-run': 'false' })).toEqual({ ...args, zone: null });
    expect(await expectMismatch(started.url, args, { ...HEADERS, 'mcp-param-dry-run': 'true' })).toContain('Mcp-Param-Dry-Run');
    expect(await expectMismatch(started.url, args, HEADERS)).toContain('Mcp-Param-Dry-Run');
  });

  it('a tool hidden from the caller answers as unknown whatever its headers; visible, they are checked', async () => {
    const call = (headers: Record<string, string>) => callMcp(started.url, 'tools/call', { name: 'secret-route', arguments: { region: 'eu' } }, { headers });
    const unknown = await callMcp(started.url, 'tools/call', { name: 'no-such-tool', arguments: { region: 'eu' } });
    const hidden = await call({});
    // Exactly what a name that does not exist gets: the missing Mcp-Param-Region does not give the tool away.
    expect(hidden.status).toBe(unknown.status);
    expect(hidden.body.error).toEqual({ ...unknown.body.error, message: 'Unknown tool: secret-route' });
    const seen = await call({ 'x-role': 'admin' });
    expect(seen.status).toBe(400);
    assertErrorResponse(seen.body, -32020);
    const served = await call({ 'x-role': 'admin', 'mcp-param-region': 'eu' });
    expect(served.body.result.content).toEqual([{ type: 'text', text: 'routed to eu' }]);
  });

  it('does not check Mcp-Param-* headers on other methods or tools', async () => {
    const list = await callMcp(started.url, 'tools/list', {}, { headers: { 'mcp-param-region': 'anything' } });
    expect(list.status).toBe(200);
  });
});

describe('invalid header options fail start-up', () => {
  async function startupError(module: unknown): Promise<string> {
    return (await startupFailure([module])).message;
  }

  it('on a number argument', async () => {
    expect(await startupError(FeaturesNumberHeaderModule)).toBe(
      'Invalid header option on argument "ratio" of FeaturesNumberHeaderTool.badNumber(): only string, integer and boolean arguments can be mirrored.',
    );
  });

  it('on a header name used twice (case-insensitively)', async () => {
    expect(await startupError(FeaturesDuplicateHeaderModule)).toBe(
      'Invalid header option on argument "b" of FeaturesDuplicateHeaderTool.badDuplicate(): header "region" is used twice.',
    );
  });

  it('on a name that is not an HTTP token', async () => {
    expect(await startupError(FeaturesBadTokenHeaderModule)).toBe(
      'Invalid header option on argument "a" of FeaturesBadTokenHeaderTool.badToken(): the header name must be an HTTP token.',
    );
  });

  it('on an empty name', async () => {
    expect(await startupError(FeaturesEmptyHeaderModule)).toBe(
      'Invalid header option on argument "a" of FeaturesEmptyHeaderTool.badEmpty(): the header name must be an HTTP token.',
    );
  });
});
