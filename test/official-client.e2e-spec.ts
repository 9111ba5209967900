import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppModule } from '../sample/app.module.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { plain, startApp, type StartedApp } from './support/mcp-http.js';
import { assertMatchesDef } from './support/wire-schema.js';

/** The sample app driven by the official MCP TypeScript client (2.x), pinned to 2026-07-28. */
describe('official @modelcontextprotocol/client against the sample app', () => {
  let started: StartedApp;
  let client: Client;

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  beforeEach(async () => {
    client = new Client(
      { name: 'nest-mcp-official-client-e2e', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
  });

  afterEach(async () => {
    await client?.close();
  });

  it('connects in the modern era at 2026-07-28 and reads the discover result', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()).toEqual(expect.objectContaining({ tools: expect.any(Object) }));
    expect(client.getServerVersion()).toEqual(expect.objectContaining({ name: 'nest-mcp-sample', version: '0.1.0' }));
    expect(client.getInstructions()).toBe('Demo tools of nest-mcp: greetings, users, progress and elicitation.');
  });

  it('lists the sample tools', async () => {
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(['hello', 'echo', 'notify', 'shout', 'create-user', 'process', 'onboard', 'upgrade-plan', 'wizard', 'quarterly-report', 'forecast', 'notes_list', 'notes_get', 'notes_create', 'notes_update', 'notes_delete', 'notes_import']);
    for (const tool of tools) assertMatchesDef(plain(tool), 'Tool');
    const hello = tools.find((tool) => tool.name === 'hello');
    expect(hello?.outputSchema).toEqual({ type: 'object', properties: { message: { type: 'string', description: 'The greeting' } }, required: ['message'] });
  });

  it('calls a simple tool (echo → text)', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'from the official client' } });
    expect(result.content).toEqual([{ type: 'text', text: 'from the official client' }]);
    expect(result.isError).toBeFalsy();
  });

  it('calls a tool with a DTO return type and outputSchema (hello → structuredContent)', async () => {
    const result = await client.callTool({ name: 'hello', arguments: { name: 'Client' } });
    expect(result.structuredContent).toEqual({ message: 'Hello, Client!' });
    expect(result.content).toEqual([{ type: 'text', text: '{"message":"Hello, Client!"}' }]);
  });

  it('calls a DTO-argument tool (create-user), valid and invalid', async () => {
    const ok = await client.callTool({ name: 'create-user', arguments: { name: 'Linus', email: 'linus@example.com', role: 'admin' } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ id: expect.any(Number), name: 'Linus', email: 'linus@example.com', role: 'admin', isDto: true });

    const bad = await client.callTool({ name: 'create-user', arguments: { name: 'L', email: 'linus@example.com' } });
    expect(bad.isError).toBe(true);
    expect(bad.content).toEqual([{ type: 'text', text: 'Invalid arguments: "name" must NOT have fewer than 2 characters' }]);
  });

  it('receives progress notifications over SSE via onprogress (process)', async () => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'process', arguments: { data: 'twelve chars' } },
      { onprogress: (update) => progress.push({ progress: update.progress, total: update.total, message: update.message }) },
    );
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'parsed' },
      { progress: 2, total: 3, message: 'transformed' },
      { progress: 3, total: 3, message: 'stored' },
    ]);
    expect(result.structuredContent).toEqual({ result: 'Done: processed 12 characters' });
  });

  it('surfaces an unknown tool as a protocol error', async () => {
    await expect(client.callTool({ name: 'does-not-exist', arguments: {} })).rejects.toThrow(/Unknown tool: does-not-exist/);
  });

  describe('elicitation through the client\'s own MRTR handling', () => {
    it('answers a one-question tool (onboard) via the elicitation handler', async () => {
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: 'Zed', email: 'zed@example.com' } };
      });
      const result = await client.callTool({ name: 'onboard', arguments: {} });
      expect(asked).toEqual(['Please enter your details']);
      expect(result.structuredContent).toEqual({ message: 'Welcome, Zed!' });
    });

    it('runs the upgrade-plan example over three round trips and charges once', async () => {
      const billing = started.app.get(BillingService);
      const before = billing.charges.length;
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        const content: Record<string, string | boolean> = asked.length === 1 ? { plan: 'team' } : { confirmed: true };
        return { action: 'accept' as const, content };
      });
      const result = await client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-42' } });
      expect(asked).toEqual(['Pick a plan', 'Confirm upgrade to team?']);
      expect(result.structuredContent).toEqual({ upgraded: true, plan: 'team' });
      expect(billing.charges.slice(before)).toEqual([{ userId: 'u-42', plan: 'team' }]);
    });

    it('elicits from a prompt (plan-review)', async () => {
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { context: 'Q3 budget' } }));
      const result = await client.getPrompt({ name: 'plan-review' });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Review the plan with this context: Q3 budget' } },
      ]);
    });

    it('lets the tool handle a decline', async () => {
      client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
      const result = await client.callTool({ name: 'onboard', arguments: {} });
      expect(result.structuredContent).toEqual({ message: 'Onboarding cancelled.' });
    });
  });
});
