import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppModule } from '../sample/app.module.js';
import { plain, startApp, type StartedApp } from './support/mcp-http.js';
import { assertMatchesDef } from './support/wire-schema.js';

const LOGO_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Prompts, resources, templates and completions of the sample app, through the official client. */
describe('official @modelcontextprotocol/client: prompts, resources, completions of the sample app', () => {
  let started: StartedApp;
  let client: Client;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  beforeEach(async () => {
    client = new Client({ name: 'nest-mcp-features-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
  });

  afterEach(async () => {
    await client?.close();
  });

  it('sees the prompts, resources and completions capabilities', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()).toEqual(
      expect.objectContaining({
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        completions: {},
      }),
    );
  });

  it('lists the prompts with their arguments', async () => {
    const result = await client.listPrompts();
    expect(result.nextCursor).toBeUndefined();
    expect(result.prompts.map(plain)).toEqual([
      {
        name: 'code-review',
        description: 'Asks for a review of a piece of code',
        arguments: [
          { name: 'code', description: 'The code to review', required: true },
          { name: 'language', description: 'Its language', required: true },
          { name: 'framework', description: 'The framework in use', required: false },
          { name: 'strictness', description: 'How strict, 1–5', required: false },
        ],
      },
      { name: 'plan-review', description: 'Reviews a plan with user-supplied context' },
    ]);
    for (const prompt of result.prompts) assertMatchesDef(plain(prompt), 'Prompt');
  });

  it('gets a prompt with converted arguments', async () => {
    const result = await client.getPrompt({
      name: 'code-review',
      arguments: { code: 'const x = 1;', language: 'typescript', framework: 'nestjs', strictness: '5' },
    });
    expect(result.messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'I review typescript (nestjs) code at strictness 5.' } },
      { role: 'user', content: { type: 'text', text: 'Please review this code:\n\nconst x = 1;' } },
    ]);
  });

  it('gets a prompt with its optional arguments left out', async () => {
    const result = await client.getPrompt({ name: 'code-review', arguments: { code: 'x', language: 'java' } });
    expect(result.messages[0]).toEqual({ role: 'assistant', content: { type: 'text', text: 'I review java code at strictness 3.' } });
  });

  it('rejects a bad enum value and an unknown prompt with -32602', async () => {
    await expect(client.getPrompt({ name: 'code-review', arguments: { code: 'x', language: 'cobol' } })).rejects.toThrow(/language/);
    await expect(client.getPrompt({ name: 'code-review', arguments: { code: 'x', language: 'cobol' } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown prompt: nope/);
    await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('lists the resources', async () => {
    const result = await client.listResources();
    expect(result.nextCursor).toBeUndefined();
    expect(result.resources.map(plain)).toEqual([
      { uri: 'docs://readme', name: 'readme', title: 'Sample README', description: 'What this sample server offers', mimeType: 'text/markdown' },
      { uri: 'docs://logo.png', name: 'logo', description: 'A 1×1 PNG', mimeType: 'image/png' },
      // The forecast tool's MCP App (sample/apps) and the skill of sample/skills.
      { uri: 'ui://forecast/view.html', name: 'forecast-view', description: 'Shows a forecast as a table', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } },
      expect.objectContaining({ uri: 'skill://release-notes/SKILL.md', name: 'release-notes', mimeType: 'text/markdown' }),
    ]);
    for (const resource of result.resources) assertMatchesDef(plain(resource), 'Resource');
  });

  it('reads the static text resource with its cache hints', async () => {
    const result = await client.readResource({ uri: 'docs://readme' });
    expect(result.contents).toEqual([
      {
        uri: 'docs://readme',
        mimeType: 'text/markdown',
        text: '# nest-mcp sample\n\nTools, prompts, resources and elicitation, served from a Nest app.',
      },
    ]);
    expect((result as { ttlMs?: number }).ttlMs).toBe(60000);
    expect((result as { cacheScope?: string }).cacheScope).toBe('public');
  });

  it('reads the binary resource as a base64 blob', async () => {
    const result = await client.readResource({ uri: 'docs://logo.png' });
    expect(result.contents).toEqual([{ uri: 'docs://logo.png', mimeType: 'image/png', blob: LOGO_BASE64 }]);
  });

  it('lists the resource templates', async () => {
    const result = await client.listResourceTemplates();
    expect(result.nextCursor).toBeUndefined();
    expect(result.resourceTemplates.map(plain)).toEqual([
      { uriTemplate: 'users://{id}/profile', name: 'user-profile', description: 'A user profile', mimeType: 'application/json' },
      { uriTemplate: 'skill://{+path}', name: 'skill-files', description: 'The files of the skills this server publishes (see skills/list)' },
    ]);
    for (const template of result.resourceTemplates) assertMatchesDef(plain(template), 'ResourceTemplate');
  });

  it('reads a templated resource, and gets -32602 for a missing one', async () => {
    const result = await client.readResource({ uri: 'users://2/profile' });
    expect(result.contents).toEqual([{ uri: 'users://2/profile', mimeType: 'application/json', text: '{"id":"2","name":"Linus","plan":"team"}' }]);
    await expect(client.readResource({ uri: 'users://99/profile' })).rejects.toThrow(/Resource not found/);
    await expect(client.readResource({ uri: 'users://99/profile' })).rejects.toMatchObject({ code: -32602, data: { uri: 'users://99/profile' } });
  });

  it('completes an enum prompt argument', async () => {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'code-review' }, argument: { name: 'language', value: 'j' } });
    expect(result.completion.values).toEqual(['java']);
    const all = await client.complete({ ref: { type: 'ref/prompt', name: 'code-review' }, argument: { name: 'language', value: '' } });
    expect(all.completion.values).toEqual(['typescript', 'java', 'python']);
  });

  it('completes with context.arguments through an @McpComplete method', async () => {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'code-review' },
      argument: { name: 'framework', value: 'f' },
      context: { arguments: { language: 'python' } },
    });
    expect(result.completion.values).toEqual(['fastapi', 'flask']);
    const typescript = await client.complete({
      ref: { type: 'ref/prompt', name: 'code-review' },
      argument: { name: 'framework', value: 'f' },
      context: { arguments: { language: 'typescript' } },
    });
    expect(typescript.completion.values).toEqual(['fastify']);
  });

  it('completes a template variable (nothing to offer for a free-text id)', async () => {
    const result = await client.complete({ ref: { type: 'ref/resource', uri: 'users://{id}/profile' }, argument: { name: 'id', value: '' } });
    expect(result.completion.values).toEqual([]);
  });
});
