import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEATURES_BYTES, FeaturesResourcesDefaultModule, FeaturesResourcesModule } from './src/features-resources.fixture.js';
import { callMcp, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertMatchesDef, assertResultResponse } from './support/wire-schema.js';

async function listAll(url: string, method: string, key: string, def: string): Promise<{ pages: Json[][]; results: Json[] }> {
  const pages: Json[][] = [];
  const results: Json[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10; guard++) {
    const response = await callMcp(url, method, cursor === undefined ? {} : { cursor });
    expect(response.status).toBe(200);
    assertResultResponse(response.body, def);
    results.push(response.body.result);
    pages.push(response.body.result[key]);
    cursor = response.body.result.nextCursor;
    if (cursor === undefined) return { pages, results };
    expect(typeof cursor).toBe('string');
  }
  throw new Error(`${method} pagination never ended`);
}

async function read(url: string, uri: string): Promise<Json> {
  const response = await callMcp(url, 'resources/read', { uri });
  expect(response.status).toBe(200);
  assertResultResponse(response.body, 'ReadResourceResult');
  const { _meta, ...result } = response.body.result;
  expect(Object.keys(_meta)).toEqual(['io.modelcontextprotocol/serverInfo']);
  return result;
}

async function readError(url: string, uri: string): Promise<Json> {
  const response = await callMcp(url, 'resources/read', { uri });
  expect(response.status).toBe(200);
  assertErrorResponse(response.body, -32602);
  expect(response.body).not.toHaveProperty('result');
  return response.body.error;
}

describe('resources (features-resources fixture: pageSize 2, global cache 30000/public)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesResourcesModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe('resources/list', () => {
    it('pages through every resource with the global cache hints on every page', async () => {
      const { pages, results } = await listAll(started.url, 'resources/list', 'resources', 'ListResourcesResult');
      expect(pages.map((page) => page.map((resource: Json) => resource.uri))).toEqual([
        ['notes://text', 'notes://bytes'],
        ['notes://view', 'notes://object'],
        ['notes://folder', 'notes://empty'],
        ['notes://broken'],
      ]);
      for (const result of results) {
        expect(result.ttlMs).toBe(30000);
        expect(result.cacheScope).toBe('public');
      }
      for (const resource of pages.flat()) assertMatchesDef(resource, 'Resource');
    });

    it('describes each resource with its decorator fields (no cache option leaks)', async () => {
      const { pages } = await listAll(started.url, 'resources/list', 'resources', 'ListResourcesResult');
      const [text, bytes] = pages[0];
      expect(text).toEqual({ uri: 'notes://text', name: 'text-note', title: 'A text note', description: 'Plain text', mimeType: 'text/plain' });
      expect(bytes).toEqual({ uri: 'notes://bytes', name: 'bytes', description: 'Binary', mimeType: 'application/octet-stream', size: 9 });
      expect(pages[1][1]).toEqual({ uri: 'notes://object', name: 'object', description: 'A contents object' });
    });
  });

  describe('resources/templates/list', () => {
    it('pages through the templates with the global cache hints', async () => {
      const { pages, results } = await listAll(started.url, 'resources/templates/list', 'resourceTemplates', 'ListResourceTemplatesResult');
      expect(pages.map((page) => page.map((template: Json) => template.uriTemplate))).toEqual([
        ['items://{id}/detail', 'files://{+path}'],
        ['flags://{name}/{on}'],
      ]);
      expect(pages[0][0]).toEqual({
        uriTemplate: 'items://{id}/detail',
        name: 'item',
        title: 'Item',
        description: 'An item by integer id',
        mimeType: 'application/json',
      });
      for (const result of results) {
        expect(result.ttlMs).toBe(30000);
        expect(result.cacheScope).toBe('public');
      }
      for (const template of pages.flat()) assertMatchesDef(template, 'ResourceTemplate');
    });
  });

  describe('resources/read', () => {
    it('text → a text entry with the uri and mimeType, global cache hints', async () => {
      expect(await read(started.url, 'notes://text')).toEqual({
        resultType: 'complete',
        contents: [{ uri: 'notes://text', mimeType: 'text/plain', text: 'text at notes://text' }],
        ttlMs: 30000,
        cacheScope: 'public',
      });
    });

    it('a Buffer → a base64 blob', async () => {
      const result = await read(started.url, 'notes://bytes');
      expect(result.contents).toEqual([{ uri: 'notes://bytes', mimeType: 'application/octet-stream', blob: 'AAEC+vv8/f7/' }]);
      expect(Buffer.from(result.contents[0].blob, 'base64')).toEqual(FEATURES_BYTES);
    });

    it('a Uint8Array view → only its own bytes', async () => {
      const result = await read(started.url, 'notes://view');
      expect(result.contents).toEqual([{ uri: 'notes://view', blob: Buffer.from([250, 251, 252]).toString('base64') }]);
    });

    it('a contents object → as is, with the uri added; per-handler cache hints win', async () => {
      expect(await read(started.url, 'notes://object')).toEqual({
        resultType: 'complete',
        contents: [{ uri: 'notes://object', mimeType: 'application/json', text: '{"a":1}' }],
        ttlMs: 60000,
        cacheScope: 'public',
      });
    });

    it('an array → several entries; a handler ttlMs alone keeps the global scope', async () => {
      expect(await read(started.url, 'notes://folder')).toEqual({
        resultType: 'complete',
        contents: [
          { uri: 'notes://folder/a.txt', mimeType: 'text/plain', text: 'a' },
          { uri: 'notes://folder/b.bin', blob: 'Yg==' },
          { uri: 'notes://folder', text: 'c' },
        ],
        ttlMs: 5,
        cacheScope: 'public',
      });
    });

    it('a template URI → its variables converted (integer id), the template cache hints', async () => {
      const result = await read(started.url, 'items://42/detail');
      expect(result).toEqual({
        resultType: 'complete',
        contents: [{ uri: 'items://42/detail', mimeType: 'application/json', text: '{"id":42,"type":"number","double":84}' }],
        ttlMs: 1234,
        cacheScope: 'public',
      });
    });

    it('a reserved-expansion variable spans segments and is percent-decoded', async () => {
      const result = await read(started.url, 'files://src/my%20dir/a.ts');
      expect(result.contents).toEqual([{ uri: 'files://src/my%20dir/a.ts', text: 'file src/my dir/a.ts' }]);
    });

    it('a boolean template variable is converted', async () => {
      const result = await read(started.url, 'flags://beta/false');
      expect(result.contents).toEqual([{ uri: 'flags://beta/false', text: '{"name":"beta","on":false}' }]);
    });

    it('a template variable that does not convert is -32602 naming it', async () => {
      const error = await readError(started.url, 'items://abc/detail');
      expect(error.message).toContain('"id"');
      const flag = await readError(started.url, 'flags://beta/maybe');
      expect(flag.message).toContain('"on"');
    });

    it('an unknown URI is -32602 "Resource not found" with data.uri (SEP-2164)', async () => {
      const error = await readError(started.url, 'notes://missing');
      expect(error).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'notes://missing' } });
    });

    it('a handler may throw ResourceNotFoundError: the same -32602 with data.uri', async () => {
      expect(await readError(started.url, 'files://missing/one')).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'files://missing/one' } });
    });

    it('a handler returning no contents is not found, never empty contents', async () => {
      expect(await readError(started.url, 'notes://empty')).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'notes://empty' } });
      expect(await readError(started.url, 'items://101/detail')).toEqual({
        code: -32602,
        message: 'Resource not found',
        data: { uri: 'items://101/detail' },
      });
    });

    it('a failing handler is -32603 without internals', async () => {
      const response = await callMcp(started.url, 'resources/read', { uri: 'notes://broken' });
      assertErrorResponse(response.body, -32603);
      expect(response.body.error).toEqual({ code: -32603, message: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) });
    });

    it('a template match needs the whole URI', async () => {
      expect((await readError(started.url, 'items://42/detail/extra')).data).toEqual({ uri: 'items://42/detail/extra' });
      expect((await readError(started.url, 'items:///detail')).data).toEqual({ uri: 'items:///detail' });
    });

    it('a request without a uri cannot match its Mcp-Name: 400 with -32020', async () => {
      const response = await callMcp(started.url, 'resources/read', {}, { headers: { 'mcp-name': 'notes://text' } });
      expect(response.status).toBe(400);
      assertErrorResponse(response.body, -32020);
    });
  });
});

describe('resources with the default cache settings', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesResourcesDefaultModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('lists on one page (default page size) with ttlMs 0 / private', async () => {
    for (const [method, key, def, count] of [
      ['resources/list', 'resources', 'ListResourcesResult', 7],
      ['resources/templates/list', 'resourceTemplates', 'ListResourceTemplatesResult', 3],
    ] as const) {
      const { pages, results } = await listAll(started.url, method, key, def);
      expect(pages).toHaveLength(1);
      expect(pages[0]).toHaveLength(count);
      expect(results[0].ttlMs).toBe(0);
      expect(results[0].cacheScope).toBe('private');
    }
  });

  it('reads with the default hints unless the handler sets its own', async () => {
    const text = await read(started.url, 'notes://text');
    expect([text.ttlMs, text.cacheScope]).toEqual([0, 'private']);
    const folder = await read(started.url, 'notes://folder');
    expect([folder.ttlMs, folder.cacheScope]).toEqual([5, 'private']);
    const object = await read(started.url, 'notes://object');
    expect([object.ttlMs, object.cacheScope]).toEqual([60000, 'public']);
  });
});
