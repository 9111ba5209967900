import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../sample/app.module.js';
import { callMcp, postMcp, rpc, startApp, type Json, type StartedApp } from './support/mcp-http.js';

const EDITOR = { 'x-demo-role': 'editor' };

/**
 * Controller routes marked @McpTool() (sample/rest/notes.controller.ts): each stays a REST route and
 * is a tool, with the route's own guard, the app's global ValidationPipe, its ParseIntPipe and its errors.
 */
describe('REST routes as tools (sample NotesController)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([AppModule], '/mcp', [], { log: () => undefined, warn: () => undefined, error: (...a: unknown[]) => console.error(...a) } as never);
  });
  afterAll(async () => {
    await started?.app.close();
  });

  const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${started.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const callTool = (name: string, args: Json, headers: Record<string, string> = {}) => postMcp(started.url, rpc('tools/call', { name, arguments: args }), { headers });

  async function modernClient(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'route-tools-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url), { requestInit: { headers } }));
    return client;
  }

  async function legacyClient(headers: Record<string, string> = {}): Promise<LegacyClient> {
    const client = new LegacyClient({ name: 'route-tools-e2e-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    await client.connect(new LegacyTransport(new URL(started.url), { requestInit: { headers } }));
    return client;
  }

  it('tools/list shows the schema built from the body DTO, the path parameter and its pipe, and the query', async () => {
    const { body } = await callMcp(started.url, 'tools/list');
    const tools = Object.fromEntries(body.result.tools.map((tool: Json) => [tool.name, tool]));
    expect(tools.notes_create.inputSchema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 80 },
        text: { type: 'string' },
        tags: { type: 'array', maxItems: 5, items: { type: 'string' } },
      },
      required: ['title'],
    });
    expect(tools.notes_get.inputSchema).toEqual({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] });
    expect(tools.notes_get.outputSchema).toEqual(expect.objectContaining({ type: 'object', required: ['id', 'title', 'text', 'tags'] }));
    expect(tools.notes_get.annotations).toEqual({ readOnlyHint: true });
    expect(tools.notes_update.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string', minLength: 1, maxLength: 80 }, text: { type: 'string' } },
      required: ['id'],
    });
    expect(tools.notes_list.inputSchema).toEqual({ type: 'object', properties: { tag: { type: 'string' } } });
    expect(tools.notes_get.description).toBe('Reads one note by its id');
  });

  it('a valid call returns the route\'s JSON, as the REST call does', async () => {
    const client = await modernClient();
    try {
      const result = await client.callTool({ name: 'notes_get', arguments: { id: 1 } });
      const viaRest = await (await rest('GET', '/notes/1')).json();
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(viaRest);
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(viaRest) }]);
    } finally {
      await client.close();
    }
  });
});
