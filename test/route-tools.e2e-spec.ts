import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ArgumentsHost,
  Body,
  Catch,
  Controller,
  Get,
  HttpException,
  Module,
  NotFoundException,
  Param,
  ParseBoolPipe,
  ParseEnumPipe,
  ParseUUIDPipe,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  Sse,
  UseFilters,
  type ExceptionFilter,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassThrough } from 'node:stream';
import { bootstrapStdio, McpModule, McpTool } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';
import { callMcp, postMcp, rpc, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { JsonLines, within } from './support/waiting.js';

const EDITOR = { 'x-demo-role': 'editor' };
const FORBIDDEN = -31003;

/**
 * Controller routes marked @McpTool() (sample/rest/notes.controller.ts): each stays a REST route and
 * is a tool, with its advertised schema checked, then the route's own guard, the app's global
 * ValidationPipe, its ParseIntPipe and its errors.
 */
describe('REST routes as tools (the sample NotesController)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });
  afterAll(async () => {
    await started?.app.close();
  });

  const rest = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${started.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  const callTool = async (name: string, args: Json, headers: Record<string, string> = {}) =>
    (await postMcp(started.url, rpc('tools/call', { name, arguments: args }), { headers })).body;

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
    expect(tools.notes_get.description).toBe('Reads one note by its id');
    expect(tools.notes_update.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string', minLength: 1, maxLength: 80 }, text: { type: 'string' } },
      required: ['id'],
    });
    expect(tools.notes_list.inputSchema).toEqual({ type: 'object', properties: { tag: { type: 'string' } } });
    expect(tools.notes_delete.annotations).toEqual({ destructiveHint: true });
  });

  it('a valid call returns the route\'s JSON, as the REST call does (2026 client)', async () => {
    const client = await modernClient();
    try {
      const result = await client.callTool({ name: 'notes_get', arguments: { id: 1 } });
      const viaRest = await rest('GET', '/notes/1');
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(viaRest.json);
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(viaRest.json) }]);
      // An array answer: the same JSON as text, under `result` as structured content (an object).
      const list = await client.callTool({ name: 'notes_list', arguments: { tag: 'demo' } });
      const listed = await rest('GET', '/notes?tag=demo');
      expect(list.structuredContent).toEqual({ result: listed.json });
      expect(list.content).toEqual([{ type: 'text', text: JSON.stringify(listed.json) }]);
    } finally {
      await client.close();
    }
  });

  it('a body breaking the advertised schema is a tool error, as a provider tool answers it; what only the ValidationPipe refuses, its REST messages', async () => {
    const before = (await rest('GET', '/notes')).json.length;
    const invalid = await callTool('notes_create', { title: '', tags: ['a', 2] }, EDITOR);
    expect(invalid.result).toEqual(
      expect.objectContaining({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: "title" must NOT have fewer than 1 characters; "tags[1]" must be string' }] }),
    );
    // An unknown property passes the schema (as for @McpArgs()); the app's ValidationPipe (forbidNonWhitelisted) still runs.
    const unknown = { title: 'fine', colour: 'red' };
    const viaRest = await rest('POST', '/notes', unknown, EDITOR);
    expect(viaRest).toEqual({ status: 400, json: expect.objectContaining({ message: ['property colour should not exist'] }) });
    expect((await callTool('notes_create', unknown, EDITOR)).result).toEqual(expect.objectContaining({ isError: true, content: [{ type: 'text', text: 'property colour should not exist' }] }));
    expect((await rest('GET', '/notes')).json.length).toBe(before);
  });

  it('a path parameter that is not the integer its ParseIntPipe advertises, and a missing note: tool errors', async () => {
    expect((await rest('GET', '/notes/abc')).status).toBe(400);
    expect((await callTool('notes_get', { id: 'abc' })).result).toEqual(expect.objectContaining({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: "id" must be integer' }] }));
    const missing = await rest('GET', '/notes/9999');
    expect(missing).toEqual({ status: 404, json: expect.objectContaining({ message: 'Note 9999 does not exist' }) });
    expect((await callTool('notes_get', { id: 9999 })).result).toEqual(expect.objectContaining({ isError: true, content: [{ type: 'text', text: 'Note 9999 does not exist' }] }));
  });

  it('without the role its guard wants, a write is refused as over REST (403 there, the forbidden code here) and changes nothing', async () => {
    const before = (await rest('GET', '/notes')).json.length;
    expect((await rest('POST', '/notes', { title: 'not allowed' })).status).toBe(403);
    const refused = await callTool('notes_create', { title: 'not allowed' });
    expect(refused.error).toEqual({ code: FORBIDDEN, message: 'Forbidden resource' });
    expect(refused.result).toBeUndefined();
    // A wrong role too.
    expect((await callTool('notes_create', { title: 'not allowed' }, { 'x-demo-role': 'viewer' })).error.code).toBe(FORBIDDEN);
    expect((await rest('GET', '/notes')).json.length).toBe(before);
  });

  it('with the role, a tool call writes through the route, and the REST routes answer as before', async () => {
    const created = await callTool('notes_create', { title: 'From a tool', tags: ['mcp'] }, EDITOR);
    const note = created.result.structuredContent;
    expect(note).toEqual({ id: expect.any(Number), title: 'From a tool', text: '', tags: ['mcp'] });
    expect(await rest('GET', `/notes/${note.id}`)).toEqual({ status: 200, json: note });
    const updated = await callTool('notes_update', { id: note.id, text: 'changed by a tool' }, EDITOR);
    expect(updated.result.structuredContent).toEqual({ ...note, text: 'changed by a tool' });
    // REST, unchanged: 201 with the DTO transformed, 200, 204 and then 404.
    const viaRest = await rest('POST', '/notes', { title: 'From REST' }, EDITOR);
    expect(viaRest).toEqual({ status: 201, json: { id: expect.any(Number), title: 'From REST', text: '', tags: [] } });
    expect((await rest('PATCH', `/notes/${viaRest.json.id}`, { title: 'Renamed' }, EDITOR)).json.title).toBe('Renamed');
    expect((await rest('DELETE', `/notes/${viaRest.json.id}`, undefined, EDITOR)).status).toBe(204);
    expect((await rest('GET', `/notes/${viaRest.json.id}`)).status).toBe(404);
    const deleted = await callTool('notes_delete', { id: note.id }, EDITOR);
    expect(deleted.result).toEqual(expect.objectContaining({ content: [] }));
    expect((await rest('GET', `/notes/${note.id}`)).status).toBe(404);
  });

  it('REST ignores the MCP context parameter (null there): the import just runs', async () => {
    const imported = await rest('POST', '/notes/import', { notes: [{ title: 'by REST' }] }, EDITOR);
    expect(imported).toEqual({ status: 201, json: { imported: [expect.any(Number)] } });
  });

  it('elicit() and progress inside a route tool, 2026 client', async () => {
    const client = await modernClient(EDITOR);
    try {
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { confirmed: true } };
      });
      const progress: Json[] = [];
      const result = await client.callTool(
        { name: 'notes_import', arguments: { notes: [{ title: 'one' }, { title: 'two' }] } },
        { onprogress: (update) => progress.push({ progress: update.progress, total: update.total, message: update.message }) },
      );
      expect(asked).toEqual(['Import 2 note(s)?']);
      // The client reports its own rounds as progress too ("Fulfilling input required…"); the route's are these.
      progress.splice(0, progress.length, ...progress.filter((update) => update.message?.startsWith('imported')));
      expect(progress).toEqual([
        { progress: 1, total: 2, message: 'imported "one"' },
        { progress: 2, total: 2, message: 'imported "two"' },
      ]);
      const ids: number[] = (result.structuredContent as Json).imported;
      expect(ids).toHaveLength(2);
      expect((await rest('GET', `/notes/${ids[1]}`)).json.title).toBe('two');
    } finally {
      await client.close();
    }
  });

  it('tools/list, a call, elicit() and progress inside a route tool, 2025 client (v1 SDK, session)', async () => {
    const client = await legacyClient(EDITOR);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'notes_get')?.inputSchema).toEqual({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] });
      expect((await client.callTool({ name: 'notes_get', arguments: { id: 1 } })).structuredContent).toEqual((await rest('GET', '/notes/1')).json);
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return { action: 'decline' };
      });
      const declined = await client.callTool({ name: 'notes_import', arguments: { notes: [{ title: 'never' }] } });
      expect(asked).toEqual(['Import 1 note(s)?']);
      expect(declined.structuredContent).toEqual({ imported: [] });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirmed: true } }));
      const progress: number[] = [];
      const accepted = await client.callTool({ name: 'notes_import', arguments: { notes: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(progress).toEqual([1, 2, 3]);
      expect((accepted.structuredContent as Json).imported).toHaveLength(3);
      // The invalid body, as in 2026: the schema's message, naming the nested field.
      const invalid = await client.callTool({ name: 'notes_import', arguments: { notes: [{ title: 7 }] } });
      expect(invalid.isError).toBe(true);
      expect(invalid.content).toEqual([{ type: 'text', text: 'Invalid arguments: "notes[0].title" must be string' }]);
    } finally {
      await client.close();
    }
  });
});

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

/** A REST filter, as an API writes one: it answers through the response. */
@Catch(NotFoundException)
class TeapotFilter implements ExceptionFilter {
  catch(exception: NotFoundException, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>().status(418).json({ message: `teapot: ${exception.message}` });
  }
}

@Controller('things/:owner')
class ThingsController {
  @Get(':id')
  @UseFilters(TeapotFilter)
  @McpTool({ name: 'things_get', description: 'Reads a thing' })
  get(
    @Param('owner', ParseUUIDPipe) owner: string,
    @Param('id') id: string,
    @Query('colour', new ParseEnumPipe(Colour)) colour: Colour,
    @Query('deep', new ParseBoolPipe({ optional: true })) deep?: boolean,
  ) {
    if (id === 'missing') throw new NotFoundException('no such thing');
    return { owner, id, colour, deep: deep ?? null };
  }

  @Post()
  @McpTool({ name: 'things_fail', description: 'Fails on the server' })
  fail(@Body('reason') reason: string) {
    throw new HttpException(`server fault: ${reason}`, 503);
  }
}

type Who = { headers: Record<string, unknown>; user?: { name: string; roles: string[] } };

/** The app's own authentication, as a global guard: it sets `req.user` (here from a header, for the test). */
class IdentityGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Who>();
    const name = request.headers['x-user'];
    if (typeof name === 'string') request.user = { name, roles: name === 'ada' ? ['admin'] : [] };
    return true;
  }
}

/** A REST role guard reading `req.user`. */
class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest<Who>().user?.roles.includes('admin') === true;
  }
}

@Controller('me')
class MeController {
  @Get()
  @UseGuards(AdminGuard)
  @McpTool({ name: 'whoami', description: 'Who is asking (admins only)' })
  whoami(@Req() request: Who) {
    return { name: request.user?.name };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'things', version: '1.0.0' })],
  controllers: [ThingsController, MeController],
  providers: [{ provide: APP_GUARD, useClass: IdentityGuard }],
})
class ThingsModule {}

describe('route tools: pipes in the schema, a REST filter, a 5xx, stdio, and refused routes', () => {
  let started: StartedApp;
  const errors: string[] = [];

  beforeAll(async () => {
    started = await startApp([ThingsModule], '/mcp', [], { log: () => undefined, warn: () => undefined, error: (message: unknown) => errors.push(String(message)) });
  });
  afterAll(async () => {
    await started?.app.close();
  });

  it('ParseUUIDPipe, ParseEnumPipe and an optional ParseBoolPipe say what the route takes', async () => {
    const { body } = await callMcp(started.url, 'tools/list');
    const tool = body.result.tools.find((entry: Json) => entry.name === 'things_get');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        owner: { type: 'string', format: 'uuid' },
        id: { type: 'string' },
        colour: { type: 'string', enum: ['red', 'blue'] },
        deep: { type: 'boolean' },
      },
      required: ['owner', 'id', 'colour'],
    });
    const owner = '0b6c1cf2-8a53-4e0e-9c53-0c7d5a2c1f10';
    const call = await postMcp(started.url, rpc('tools/call', { name: 'things_get', arguments: { owner, id: 'x', colour: 'blue', deep: true } }));
    expect(call.body.result.structuredContent).toEqual({ owner, id: 'x', colour: 'blue', deep: true });
  });

  it('what a REST exception filter writes to the response is the answer (a 4xx: a tool error with its body)', async () => {
    const owner = '0b6c1cf2-8a53-4e0e-9c53-0c7d5a2c1f10';
    const call = await postMcp(started.url, rpc('tools/call', { name: 'things_get', arguments: { owner, id: 'missing', colour: 'red' } }));
    expect(call.body.result).toEqual(expect.objectContaining({ isError: true, content: [{ type: 'text', text: 'teapot: no such thing' }] }));
  });

  it('a 5xx is an internal error with a reference; the message stays in the log', async () => {
    const owner = '0b6c1cf2-8a53-4e0e-9c53-0c7d5a2c1f10';
    const call = await postMcp(started.url, rpc('tools/call', { name: 'things_fail', arguments: { owner, reason: 'disk full' } }));
    expect(call.body.result.isError).toBe(true);
    expect(call.body.result.content[0].text).toMatch(/^Internal error \(ref [0-9a-f]+\)$/);
    expect(call.body.result.content[0].text).not.toContain('disk full');
    expect(errors.some((line) => line.includes('server fault: disk full'))).toBe(true);
  });

  it('a guard reading req.user sees the MCP caller, as it sees the REST caller', async () => {
    const asked = (user: string) => postMcp(started.url, rpc('tools/call', { name: 'whoami', arguments: {} }), { headers: { 'x-user': user } });
    expect((await asked('ada')).body.result.structuredContent).toEqual({ name: 'ada' });
    expect((await asked('bob')).body.error).toEqual({ code: FORBIDDEN, message: 'Forbidden resource' });
    const rest = (user: string) => fetch(`${started.baseUrl}/me`, { headers: { 'x-user': user } });
    expect(await (await rest('ada')).json()).toEqual({ name: 'ada' });
    expect((await rest('bob')).status).toBe(403);
  });

  it('over stdio the route tool runs too (there is no HTTP request under it)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = new JsonLines('the stdio server', output);
    const server = await bootstrapStdio(ThingsModule, { input, output, logger: false, exitOnClose: false, handleSignals: false });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const owner = '0b6c1cf2-8a53-4e0e-9c53-0c7d5a2c1f10';
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'things_get', arguments: { owner, id: 'y', colour: 'red' }, _meta: meta } })}\n`);
    const answer = await out.response(1);
    expect(answer.result.structuredContent).toEqual({ owner, id: 'y', colour: 'red', deep: null });
    input.end();
    await within(server.closed, 'the stdio server to close', () => out.messages);
  });

  it.each([
    ['@Res()', 'raw', (target: object, key: string) => Res()(target, key, 0), 'it takes @Res(): it writes the HTTP response itself'],
    ['@Sse()', 'events', (target: object, key: string) => Sse('events')(target, key, Object.getOwnPropertyDescriptor(target, key)!), 'it is an @Sse() event stream'],
  ])('a route using %s is refused at start-up, in one line naming it', async (_label, name, decorate, why) => {
    class Refused {
      handler(): unknown {
        return undefined;
      }
    }
    decorate(Refused.prototype, 'handler');
    Get(name)(Refused.prototype, 'handler', Object.getOwnPropertyDescriptor(Refused.prototype, 'handler')!);
    McpTool({ description: 'Refused' })(Refused.prototype, 'handler', Object.getOwnPropertyDescriptor(Refused.prototype, 'handler')!);
    Controller('refused')(Refused);
    @Module({ imports: [McpModule.forRoot({ name: 'refused', version: '1.0.0' })], controllers: [Refused] })
    class RefusedModule {}
    const error = await startupFailure([RefusedModule]);
    expect(error.message).toBe(`@McpTool() on route Refused.handler() is refused: ${why}. A route tool answers with JSON; keep this route REST-only, or give the tool a provider method.`);
  });
});
