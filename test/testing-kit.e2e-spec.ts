import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { JsonRpcErrorCode, McpModule, McpTool, ToolContext, type InputRequest, type McpToolContext, type ProgressNotificationParams } from 'nest-mcp';
import { McpClientError, McpTest, type McpTestClient } from 'nest-mcp/testing';
import { AppModule } from '../sample/app.module.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { FeaturesHeaderTools } from './src/features-headers.fixture.js';
import { InteractiveFixtureModule } from './src/interactive-fixture.module.js';
import { createHttpApp } from './support/http-adapter.js';
import { legacySessionHeaders, postMcp } from './support/mcp-http.js';

const TASKS = 'io.modelcontextprotocol/tasks';

/** A task that runs until it is cancelled, so "working" needs no timing. */
@Injectable()
class UntilCancelledTool {
  @McpTool({ name: 'until-cancelled', description: 'Runs until cancelled', task: 'required' })
  async untilCancelled(@ToolContext() ctx: McpToolContext): Promise<string> {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    return 'stopped';
  }
}

/** nest-mcp/testing against the sample app and the interactive fixture, over real loopback HTTP. */
describe('nest-mcp/testing', () => {
  describe('a client of the sample app, booted from a TestingModule', () => {
    let client: McpTestClient;

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
      client = await McpTest.createClient(moduleRef, { logger: false });
    });

    afterAll(async () => {
      await client?.close();
    });

    it('lists the tools with their schemas and calls one', async () => {
      const tools = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
      expect(tools.find((tool) => tool.name === 'echo')?.inputSchema).toEqual(expect.objectContaining({ type: 'object', required: ['message'] }));
      const result = await client.callTool('echo', { message: 'hi' });
      expect(result).toEqual(expect.objectContaining({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }] }));
    });

    it('calls the progress callback with each notification, in order', async () => {
      const progress: ProgressNotificationParams[] = [];
      const result = await client.callTool('process', { data: 'twelve chars' }, { onProgress: (update) => progress.push(update) });
      expect(progress.map(({ progress, total, message }) => ({ progress, total, message }))).toEqual([
        { progress: 1, total: 3, message: 'parsed' },
        { progress: 2, total: 3, message: 'transformed' },
        { progress: 3, total: 3, message: 'stored' },
      ]);
      expect(new Set(progress.map((update) => update.progressToken)).size).toBe(1);
      expect(result.structuredContent).toEqual({ result: 'Done: processed 12 characters' });
    });

    it('answers a two-round elicitation from a script in one call, the side effect once', async () => {
      const billing = client.app.get(BillingService);
      const before = billing.charges.length;
      const result = await client.callTool('upgrade-plan', { userId: 'u-7' }, {
        answer: [
          { action: 'accept', content: { plan: 'team' } },
          { action: 'accept', content: { confirmed: true } },
        ],
      });
      expect(result.structuredContent).toEqual({ upgraded: true, plan: 'team' });
      expect(billing.charges.slice(before)).toEqual([expect.objectContaining({ userId: 'u-7', plan: 'team' })]);
    });

    it('hands each question to an answer function, and a declined elicitation reaches the tool', async () => {
      const asked: Array<[string, InputRequest]> = [];
      const result = await client.callTool('onboard', {}, {
        answer: (question, key) => {
          asked.push([key, question]);
          return { action: 'decline' };
        },
      });
      expect(asked).toEqual([['elicitation-1', expect.objectContaining({ method: 'elicitation/create', params: expect.objectContaining({ message: 'Please enter your details' }) })]]);
      expect(result.structuredContent).toEqual({ message: 'Onboarding cancelled.' });
      expect(result.isError).toBeUndefined();
    });

    it('mixes progress and questions in one call (wizard)', async () => {
      const progress: number[] = [];
      const result = await client.callTool('wizard', {}, {
        onProgress: (update) => progress.push(update.progress),
        answer: [{ action: 'accept', content: { project: 'atlas' } }, { action: 'accept', content: { language: 'java' } }],
      });
      expect(result.structuredContent).toEqual({ project: 'atlas', language: 'java' });
      // Each round re-runs the tool from the top, but a step an earlier round sent is not sent again.
      expect(progress).toEqual([1, 2, 3]);
    });

    it('says which question was left unanswered: no answer option, or a script used up', async () => {
      await expect(client.callTool('onboard')).rejects.toThrow(
        'tools/call "onboard" asked elicitation-1 (elicitation/create: "Please enter your details"), but the call has no `answer` option to reply with',
      );
      await expect(client.callTool('upgrade-plan', { userId: 'u-8' }, { answer: [{ action: 'accept', content: { plan: 'pro' } }] })).rejects.toThrow(
        'tools/call "upgrade-plan" asked elicitation-2 (elicitation/create: "Confirm upgrade to pro?"), but its 1 scripted answer(s) are used up',
      );
    });

    it('a tool failure is a result with isError; a JSON-RPC error is thrown as McpClientError with its code', async () => {
      const invalid = await client.callTool('create-user', { name: 'L', email: 'l@example.com' });
      expect(invalid.isError).toBe(true);
      expect(invalid.content).toEqual([{ type: 'text', text: 'Invalid arguments: "name" must NOT have fewer than 2 characters' }]);

      const unknown = await client.callTool('no-such-tool').catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(McpClientError);
      expect(unknown).toMatchObject({ method: 'tools/call', code: JsonRpcErrorCode.InvalidParams, httpStatus: 200 });
      expect((unknown as McpClientError).message).toContain('no-such-tool');

      await expect(client.request('no/such-method')).rejects.toMatchObject({ code: JsonRpcErrorCode.MethodNotFound, httpStatus: 404, message: 'Method not found: no/such-method' });
    });

    it('gets prompts (one elicits), reads resources and completes arguments', async () => {
      expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(expect.arrayContaining(['code-review', 'plan-review']));
      const review = await client.getPrompt('code-review', { code: 'let x = 1', language: 'typescript', framework: 'nestjs' });
      expect(review.messages[0].content).toEqual({ type: 'text', text: 'I review typescript (nestjs) code at strictness 3.' });
      const planned = await client.getPrompt('plan-review', {}, { answer: [{ action: 'accept', content: { context: 'Q3 budget' } }] });
      expect(JSON.stringify(planned.messages)).toContain('Q3 budget');

      expect((await client.listResources()).map((resource) => resource.uri)).toContain('docs://logo.png');
      expect((await client.listResourceTemplates()).map((template) => template.uriTemplate)).toContain('users://{id}/profile');
      const logo = await client.readResource('docs://logo.png');
      expect(logo.contents[0]).toEqual(expect.objectContaining({ uri: 'docs://logo.png', mimeType: 'image/png', blob: expect.any(String) }));

      const completion = await client.complete({ type: 'ref/prompt', name: 'code-review' }, { name: 'framework', value: 'f' }, { language: 'python' });
      expect(completion.completion.values).toEqual(['fastapi', 'flask']);
    });

    it('aborting a call rejects it', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(client.callTool('echo', { message: 'x' }, { signal: controller.signal })).rejects.toThrow();
    });
  });

  describe('what it connects to', () => {
    it('boots a root module itself, and close() stops the app it started', async () => {
      const client = await McpTest.createClient(InteractiveFixtureModule.forRoot(), { logger: false });
      const server = client.app.getHttpServer();
      expect(client.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect((await client.callTool('count-up')).resultType).toBe('complete');
      await client.close();
      expect(server.listening).toBe(false);
    });

    it('takes an application: listens on an ephemeral loopback port if it does not yet, and leaves it to its owner', async () => {
      const moduleRef = await Test.createTestingModule({ imports: [InteractiveFixtureModule.forRoot()] }).compile();
      const app = createHttpApp(moduleRef, { logger: false });
      try {
        const client = await McpTest.createClient(app);
        expect(app.getHttpServer().listening).toBe(true);
        expect((await client.listTools()).length).toBeGreaterThan(0);
        await client.close();
        expect(app.getHttpServer().listening).toBe(true);
        // A second client of the same app connects to the port it already listens on.
        const again = await McpTest.createClient(app);
        expect(again.url).toBe(client.url);
        await again.close();
      } finally {
        await app.close();
      }
    });

    it("finds the module's endpoint, and mirrors x-mcp-header arguments as Mcp-Param-* headers (non-ASCII in Base64)", async () => {
      const client = await McpTest.createClient({
        imports: [McpModule.forRoot({ name: 'elsewhere', version: '1.0.0', endpoint: '/rpc/mcp' })],
        providers: [FeaturesHeaderTools],
      }, { logger: false });
      try {
        expect(client.url).toMatch(/\/rpc\/mcp$/);
        const args = { region: 'zürich-1', priority: 3, dryRun: true, note: 'n' };
        const result = await client.callTool('route', args);
        expect(result.isError).toBeUndefined();
        expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ ...args, zone: null });
      } finally {
        await client.close();
      }
    });

    it('sends the Mcp-Name of tasks/get and tasks/cancel (the task id), so the tasks extension works through request()', async () => {
      const client = await McpTest.createClient({
        imports: [McpModule.forRoot({ name: 'kit-tasks', version: '1.0.0' })],
        providers: [UntilCancelledTool],
      }, { logger: false, capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } });
      try {
        const created = await client.callTool('until-cancelled');
        expect(created).toMatchObject({ resultType: 'task', status: 'working' });
        const taskId = (created as unknown as { taskId: string }).taskId;
        expect(await client.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
        await client.request('tasks/cancel', { taskId });
        expect(await client.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'cancelled' });
      } finally {
        await client.close();
      }
    });

    it('fails to connect with the start-up error of a module that cannot start, without exiting', async () => {
      const broken = { imports: [], providers: [{ provide: 'boom', useFactory: () => { throw new Error('cannot start'); } }] };
      await expect(McpTest.createClient(broken, { logger: false })).rejects.toThrow('cannot start');
    });
  });

  describe('the legacy era (2025-11-25): initialize, then requests in the session', () => {
    let client: McpTestClient;

    beforeAll(async () => {
      client = await McpTest.createClient(AppModule, { era: 'legacy', logger: false });
    });

    afterAll(async () => {
      await client?.close();
    });

    it('negotiates 2025-11-25 and lists, calls, gets prompts and reads resources in the session', async () => {
      expect(client.protocolVersion).toBe('2025-11-25');
      expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool('echo', { message: 'from 2025' });
      expect(result.content).toEqual([{ type: 'text', text: 'from 2025' }]);
      expect(result).not.toHaveProperty('resultType');
      expect((await client.getPrompt('code-review', { code: 'x', language: 'java' })).messages).toHaveLength(2);
      expect((await client.readResource('docs://logo.png')).contents).toHaveLength(1);
    });

    it('reports progress in the session', async () => {
      const progress: number[] = [];
      await client.callTool('process', { data: 'abc' }, { onProgress: (update) => progress.push(update.progress) });
      expect(progress).toEqual([1, 2, 3]);
    });

    it('answers the questions of a 2025 call (server-to-client elicitation/create on its stream) from the same script', async () => {
      const billing = client.app.get(BillingService);
      const before = billing.charges.length;
      const asked: string[] = [];
      const result = await client.callTool('upgrade-plan', { userId: 'u-2025' }, {
        answer: (question) => {
          asked.push(question.method === 'elicitation/create' ? question.params.message : question.method);
          return asked.length === 1 ? { action: 'accept', content: { plan: 'pro' } } : { action: 'accept', content: { confirmed: true } };
        },
      });
      expect(asked).toEqual(['Pick a plan', 'Confirm upgrade to pro?']);
      expect(result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
      expect(billing.charges.slice(before)).toEqual([{ userId: 'u-2025', plan: 'pro' }]);
      const declined = await client.callTool('onboard', {}, { answer: [{ action: 'decline' }] });
      expect(declined.structuredContent).toEqual({ message: 'Onboarding cancelled.' });
    });

    it('close() ends the session: its id is refused afterwards', async () => {
      const own = await McpTest.createClient(client.app, { era: 'legacy' });
      await own.listTools();
      const sessionId = (own as unknown as { sessionId: string }).sessionId;
      await own.close();
      const after = await postMcp(own.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
      expect(after.status).toBe(404);
    });
  });
});
