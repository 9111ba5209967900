import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type StartedApp } from './support/mcp-http.js';
import { RekogStyleAppModule } from './src/rekog-style.fixture.js';

/** What both official clients offer for these calls (their option shapes differ only for progress). */
interface Connected {
  client: ClientV1 | ClientV2;
  callWithProgress(name: string, args: Record<string, unknown>, onProgress: (progress: number) => void): Promise<Record<string, any>>;
}

async function modern(url: string): Promise<Connected> {
  const client = new ClientV2({ name: 'rekog-style-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL(url)));
  return { client, callWithProgress: (name, args, onProgress) => client.callTool({ name, arguments: args }, { onprogress: (update) => onProgress(update.progress) }) };
}

async function legacy(url: string): Promise<Connected> {
  const client = new ClientV1({ name: 'rekog-style-e2e-2025', version: '1.0.0' });
  await client.connect(new TransportV1(new URL(url)));
  return { client, callWithProgress: (name, args, onProgress) => client.callTool({ name, arguments: args }, undefined, { onprogress: (update) => onProgress(update.progress) }) };
}

/** The app of test/src/rekog-style.fixture.ts: @rekog/mcp-nest code with only its imports and decorator names changed. */
describe('an app written for @rekog/mcp-nest, moved by renaming imports and decorators', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([RekogStyleAppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe.each([
    ['2026-07-28', modern],
    ['2025-11-25', legacy],
  ])('with the official client of %s', (_era, connect) => {
    let connected: Connected;

    beforeAll(async () => {
      connected = await connect(started.url);
    });

    afterAll(async () => {
      await connected?.client.close();
    });

    it('lists the tools with the JSON Schemas of their Zod parameters and output', async () => {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['hello-world', 'word-count', 'ping-pong']);
      expect(tools[0].inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string', default: 'World', description: 'Who to greet' }, steps: { type: 'integer', minimum: 1, maximum: 10, default: 4 } },
      });
      expect(tools[1].outputSchema).toMatchObject({ type: 'object', properties: { words: { type: 'integer' }, longest: { type: 'string' } } });
      expect(tools[1].annotations).toEqual({ readOnlyHint: true });
    });

    it('calls a tool with (args, context, request): defaults applied, progress reported, the HTTP request read', async () => {
      const seen: number[] = [];
      const result = await connected.callWithProgress('hello-world', {}, (progress) => seen.push(progress));
      expect(seen).toEqual([25, 50, 75, 100]);
      expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Hello, World! You are using .+\.$/) }]);
    });

    it('calls a tool without a schema as (args, context)', async () => {
      const seen: number[] = [];
      const result = await connected.callWithProgress('ping-pong', {}, (progress) => seen.push(progress));
      expect(seen).toEqual([1]);
      expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
    });

    it('returns structuredContent the client checks against the listed output schema', async () => {
      await connected.client.listTools();
      const result = await connected.client.callTool({ name: 'word-count', arguments: { text: 'the quick brown fox' } });
      expect(result.structuredContent).toEqual({ words: 4, longest: 'quick' });
    });

    it('refuses arguments the Zod parameters refuse', async () => {
      const result = await connected.client.callTool({ name: 'hello-world', arguments: { steps: 0 } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'Invalid arguments: "steps": Too small: expected number to be >=1' }]);
    });

    it('reads the resource and a templated one, the handler getting { uri, ...variables }', async () => {
      expect((await connected.client.readResource({ uri: 'mcp://hello-world' })).contents).toEqual([{ uri: 'mcp://hello-world', mimeType: 'text/plain', text: 'Hello, World!' }]);
      const profile = await connected.client.readResource({ uri: 'mcp://users/42/profile' });
      expect(profile.contents).toEqual([{ uri: 'mcp://users/42/profile', mimeType: 'application/json', text: '{"id":"42","name":"User 42"}' }]);
    });

    it('lists the prompt\'s Zod arguments and renders it', async () => {
      const { prompts } = await connected.client.listPrompts();
      expect(prompts[0].arguments).toEqual([
        { name: 'name', description: 'Who is greeted', required: true },
        { name: 'language', description: 'A language code, e.g. "fr"', required: false },
      ]);
      const prompt = await connected.client.getPrompt({ name: 'greeting-guide', arguments: { name: 'Ada', language: 'fr' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write a greeting for Ada in fr.' } }]);
    });
  });
});
