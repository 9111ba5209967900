import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { AppModule } from '../sample/app.module.js';
import { legacySessionHeaders, postMcp, startApp, type StartedApp } from './support/mcp-http.js';
import { WireRecorder } from './support/wire-recorder.js';
import { assertLegacyServerMessage } from './support/wire-schema.js';

/** The sample app driven by 2025-era clients: the v1 SDK and the v2 client on its default (legacy) negotiation. */
describe('2025-era clients against the sample app (one endpoint, sealed sessions)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('the v1 SDK connects, lists, calls with progress, gets a prompt, reads, completes, pings, and DELETE ends the session', async () => {
    const wire = new WireRecorder();
    const client = new Client({ name: 'legacy-e2e', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(started.url), { fetch: wire.fetch });
    await client.connect(transport);
    expect(client.getServerVersion()).toEqual(expect.objectContaining({ name: 'nest-mcp-sample', version: '0.1.0' }));
    expect(client.getInstructions()).toBe('Demo tools of nest-mcp: greetings, users, progress and elicitation.');
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('hello');
    const hello = await client.callTool({ name: 'hello', arguments: { name: 'Legacy' } });
    expect(hello.structuredContent).toEqual({ message: 'Hello, Legacy!' });

    const progress: number[] = [];
    const processed = await client.callTool({ name: 'process', arguments: { data: 'abc' } }, undefined, {
      onprogress: (event) => progress.push(event.progress),
    });
    expect(progress).toEqual([1, 2, 3]);
    expect(processed.isError).toBeFalsy();

    // It did not declare elicitation: the question is never sent (test/legacy-elicitation.e2e-spec.ts answers them).
    await expect(client.callTool({ name: 'onboard', arguments: {} })).rejects.toThrow('needs the client capability elicitation');

    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('code-review');
    const prompt = await client.getPrompt({ name: 'code-review', arguments: { code: 'x = 1', language: 'python' } });
    expect(prompt.messages).toHaveLength(2);

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('docs://readme');
    const read = await client.readResource({ uri: 'docs://readme' });
    expect(read.contents[0]).toEqual(expect.objectContaining({ uri: 'docs://readme', mimeType: 'text/markdown' }));
    await client.listResourceTemplates();

    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'code-review' }, argument: { name: 'framework', value: '' } });
    expect(Array.isArray(completion.completion.values)).toBe(true);
    expect(await client.ping()).toEqual({});

    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const after = await postMcp(started.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
    expect(after.status).toBe(404);
    await client.close();

    expect(wire.messages.length).toBeGreaterThan(10);
    for (const { message, method } of wire.messages) assertLegacyServerMessage(message, method);
  });

  it('a prompt that asks (elicit() in prompts/get) is answered through elicitation/create too', async () => {
    const client = new Client({ name: 'legacy-e2e-prompt', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { context: 'a payments service' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
    try {
      const prompt = await client.getPrompt({ name: 'plan-review' });
      expect(asked).toEqual(['What context should the review use?']);
      expect(JSON.stringify(prompt.messages)).toContain('Review the plan with this context: a payments service');
    } finally {
      await client.close();
    }
  });

  /**
   * What the MCP Inspector's legacy mode declares at initialize. The tasks extension is not defined
   * under 2025-11-25 (SEP-2663): in a 2025 session it enables nothing, so the sample's task tool runs
   * as an ordinary call; skills and MCP Apps are advertised back, as SEP-2133 negotiates them there.
   */
  const EXTENSIONS_DECLARED = { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/skills': {} };
  const EXTENSIONS_ADVERTISED = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/skills': { directoryRead: true } };

  it('the v1 SDK declaring the tasks extension at initialize: quarterly-report runs as a plain call (question on the stream, progress, the report), never a task or a 2026-only error', async () => {
    const wire = new WireRecorder();
    const client = new Client({ name: 'legacy-e2e-tasks', version: '1.0.0' }, { capabilities: { elicitation: {}, extensions: EXTENSIONS_DECLARED } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirmed: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url), { fetch: wire.fetch }));
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual(EXTENSIONS_ADVERTISED);
      const progress: number[] = [];
      const report = await client.callTool({ name: 'quarterly-report', arguments: { pages: 1 } }, undefined, { onprogress: (event) => progress.push(event.progress) });
      expect(asked).toEqual(['Build a 1-page report? It takes about 1 seconds.']);
      expect(progress).toEqual([1]);
      expect(report).toEqual({ content: [{ type: 'text', text: 'The 1-page quarterly report is ready.' }] });
    } finally {
      await client.close();
    }
    expect(JSON.stringify(wire.messages)).not.toMatch(/taskId|"task"/);
    for (const { message, method } of wire.messages) assertLegacyServerMessage(message, method);
  });

  it('the v2 client declaring the tasks extension on its default (2025) negotiation gets the same plain call', async () => {
    const client = new ClientV2({ name: 'legacy-e2e-v2-tasks', version: '1.0.0' }, { capabilities: { elicitation: {}, extensions: EXTENSIONS_DECLARED } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirmed: true } }));
    await client.connect(new TransportV2(new URL(started.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerCapabilities()?.extensions).toEqual(EXTENSIONS_ADVERTISED);
      const report = await client.callTool({ name: 'quarterly-report', arguments: { pages: 1 } });
      expect(report.content).toEqual([{ type: 'text', text: 'The 1-page quarterly report is ready.' }]);
    } finally {
      await client.close();
    }
  });

  it('the v2 client on its default settings connects in the 2025 era and calls a tool', async () => {
    const client = new ClientV2({ name: 'legacy-e2e-v2', version: '1.0.0' });
    await client.connect(new TransportV2(new URL(started.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const result = await client.callTool({ name: 'echo', arguments: { message: 'from v2 defaults' } });
    expect(result.content).toEqual([{ type: 'text', text: 'from v2 defaults' }]);
    await client.close();
  });
});
