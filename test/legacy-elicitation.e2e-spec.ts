import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CancelledNotificationSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpEras } from '../lib/era/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';
import { watchState } from './src/interactive-fixture.tools.js';
import { until, within } from './support/waiting.js';
import { legacySessionHeaders, postMcp, type Json } from './support/mcp-http.js';
import { WireRecorder } from './support/wire-recorder.js';
import { assertLegacyServerMessage } from './support/wire-schema.js';

type Answer = (params: Json, requestId: string | number) => Json | Promise<Json>;

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  asked: Json[];
}

/** Questions sent by the server over 2025 sessions, answered by the v1 SDK client (HTTP). */
describe('elicit() for 2025 clients: server→client requests on the call stream (v1 SDK, HTTP)', () => {
  let app: INestApplication;
  let url: string;
  let eras: McpEras;
  // Every message the server sent, streams read as they arrive (the standalone GET stream never ends on its own).
  const wire = new WireRecorder();
  const clients: Client[] = [];
  /** What the server logged as errors: a client's cancel, disconnect or late answer is not one. */
  const errors: string[] = [];
  const logger = { log: () => undefined, warn: () => undefined, error: (message: unknown) => errors.push(String(message)) };

  beforeAll(async () => {
    // The default wait for an answer (the requestState lifetime): answers here never race a short limit.
    ({ app, url } = await startInteractiveApp({ logger }));
    eras = app.get(McpEras);
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await app?.close();
  });

  beforeEach(() => {
    app.get(BillingService).charges.length = 0;
  });

  async function connect(answer?: Answer, capabilities: Json = { elicitation: {} }, target = url): Promise<Connected> {
    const asked: Json[] = [];
    const client = new Client({ name: 'legacy-elicit-e2e', version: '1.0.0' }, { capabilities });
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        asked.push(request.params as Json);
        return (await answer(request.params as Json, extra.requestId)) as never;
      });
    }
    const transport = new StreamableHTTPClientTransport(new URL(target), { fetch: wire.fetch });
    await client.connect(transport);
    clients.push(client);
    return { client, transport, asked };
  }

  it('one question: elicitation/create on the call stream, the answer posted, the handler re-run: one call', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } }));
    const result = await client.callTool({ name: 'onboard', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ message: 'Welcome, Ada!' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(
      expect.objectContaining({
        message: 'Please enter your details',
        requestedSchema: expect.objectContaining({ type: 'object', required: ['name', 'email'] }),
      }),
    );
    expect(eras.awaitedClientAnswers).toBe(0);
  });

  it('two questions in two rounds; the side effect after the last one runs once', async () => {
    const { client, asked } = await connect((params) =>
      String(params.message).startsWith('Pick') ? { action: 'accept', content: { plan: 'team' } } : { action: 'accept', content: { confirmed: true } },
    );
    const result = await client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-7' } });
    expect(result.structuredContent).toEqual({ upgraded: true, plan: 'team' });
    expect(asked.map((params) => params.message)).toEqual(['Pick a plan', 'Confirm upgrade to team?']);
    expect(app.get(BillingService).charges).toEqual([{ userId: 'u-7', plan: 'team' }]);
  });

  it('decline and cancel reach the handler as answers', async () => {
    const declined = await connect(() => ({ action: 'decline' }));
    expect((await declined.client.callTool({ name: 'onboard', arguments: {} })).structuredContent).toEqual({ message: 'Onboarding cancelled.' });
    const cancelled = await connect(() => ({ action: 'cancel' }));
    expect((await cancelled.client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-8' } })).structuredContent).toEqual({
      upgraded: false,
      reason: 'cancelled',
    });
    expect(app.get(BillingService).charges).toEqual([]);
  });

  it('progress across rounds on the same stream, increasing, each step once', async () => {
    const { client } = await connect((params) =>
      String(params.message).startsWith('Step 1') ? { action: 'accept', content: { project: 'atlas' } } : { action: 'accept', content: { language: 'java' } },
    );
    const progress: number[] = [];
    const result = await client.callTool({ name: 'wizard', arguments: {} }, undefined, { onprogress: (event) => progress.push(event.progress) });
    expect(result.structuredContent).toEqual({ project: 'atlas', language: 'java' });
    expect(progress).toEqual([1, 2, 3]);
  });

  it('several questions in one round go out together (elicitation, sampling, roots)', async () => {
    const { client } = await connect(() => ({ action: 'accept', content: { name: 'octocat' } }), { elicitation: {}, sampling: {}, roots: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    const result = await client.callTool({ name: 'multi-input', arguments: {} });
    expect(result.isError).toBeFalsy();
    const answers = (result.structuredContent as { answers: Json }).answers;
    expect(answers.github_login).toEqual({ action: 'accept', content: { name: 'octocat' } });
    expect(answers.capital_of_france).toEqual(expect.objectContaining({ model: 'm', content: { type: 'text', text: 'Paris' } }));
    expect(answers.client_roots).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
  });

  it('a session that did not declare elicitation is refused with -32600 naming the capability, and is never asked', async () => {
    const { client } = await connect(undefined, {});
    const error = await client.callTool({ name: 'onboard', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).message).toContain('needs the client capability elicitation');
    expect((error as McpError).data).toEqual({ requiredCapabilities: { elicitation: {} } });
  });

  it('the wait limit: no answer within session.inputTimeout fails the call with a clear error and cancels the question', async () => {
    // An app of its own with a 2 s limit, which a client that never answers is sure to reach.
    const limited = await startInteractiveApp({ session: { inputTimeout: 'PT2S' }, logger });
    let client: Client | undefined;
    try {
      let cancelledSeen = false;
      ({ client } = await connect(() => new Promise(() => undefined), undefined, limited.url));
      client.setNotificationHandler(CancelledNotificationSchema, async () => {
        cancelledSeen = true;
      });
      const error = await client.callTool({ name: 'onboard', arguments: {} }, undefined, { timeout: 60_000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as McpError).code).toBe(-31008);
      expect((error as McpError).message).toContain('did not answer elicitation/create within 2000 ms');
      expect(cancelledSeen).toBe(true);
      expect(limited.app.get(McpEras).awaitedClientAnswers).toBe(0);
    } finally {
      await client?.close();
      await limited.app.close();
    }
  });

  async function pendingQuestionEndedBy(end: (client: Client, transport: StreamableHTTPClientTransport, controller: AbortController) => Promise<void>) {
    watchState.runs = 0;
    watchState.aborted = 0;
    let askedResolve!: () => void;
    const askedOnce = new Promise<void>((resolve) => (askedResolve = resolve));
    const controller = new AbortController();
    const { client, transport } = await connect(() => {
      askedResolve();
      return new Promise(() => undefined);
    });
    const call = client.callTool({ name: 'watched-question', arguments: {} }, undefined, { signal: controller.signal }).catch(() => undefined);
    await askedOnce;
    expect(eras.awaitedClientAnswers).toBe(1);
    await end(client, transport, controller);
    await call;
    await until(() => eras.awaitedClientAnswers === 0 && watchState.aborted !== 0, 'the question dropped and the call aborted', () => ({
      awaitedClientAnswers: eras.awaitedClientAnswers,
      ...watchState,
    }));
    expect(eras.awaitedClientAnswers).toBe(0);
    expect(watchState.aborted).toBe(1);
    expect(watchState.runs).toBe(1);
  }

  it('the client cancels (notifications/cancelled) while a question is pending: the call signal fires, the question is dropped, no re-run', async () => {
    await pendingQuestionEndedBy(async (_client, _transport, controller) => controller.abort());
  });

  it('the client disconnects while a question is pending: the same', async () => {
    await pendingQuestionEndedBy(async (_client, transport) => transport.close());
  });

  it("a response posted in another session never reaches the call: 400, and the call still gets its own client's answer", async () => {
    const intruder = await connect();
    let release!: (answer: Json) => void;
    let asked!: (requestId: unknown) => void;
    const question = new Promise<unknown>((resolve) => (asked = resolve));
    const { client } = await connect((_params, requestId) => {
      asked(requestId);
      return new Promise((resolve) => (release = resolve));
    });
    const call = client.callTool({ name: 'onboard', arguments: {} });
    const questionId = await within(question, 'the question to the client');
    expect(typeof questionId).toBe('string');
    const forged = await postMcp(
      url,
      { jsonrpc: '2.0', id: questionId, result: { action: 'accept', content: { name: 'Mallory', email: 'm@evil.example' } } },
      { headers: legacySessionHeaders(intruder.transport.sessionId!), skipSchema: true },
    );
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe(-32600);
    expect(forged.body).not.toHaveProperty('id');
    release({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } });
    expect((await call).structuredContent).toEqual({ message: 'Welcome, Ada!' });
  });

  it('a response for an id no call awaits is refused with 400 (not silently accepted)', async () => {
    const { transport } = await connect();
    const reply = await postMcp(url, { jsonrpc: '2.0', id: 'no-such-question', result: {} }, { headers: legacySessionHeaders(transport.sessionId!), skipSchema: true });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toContain('no request of this session awaits');
  });

  it('logged no error for any of the above (cancel, disconnect, timeout and refusals are the clients\' doing)', () => {
    expect(errors).toEqual([]);
  });

  it('every message the server sent is valid 2025-11-25 (questions included)', async () => {
    expect(wire.messages.some(({ message }) => message.method === 'elicitation/create')).toBe(true);
    for (const { message, method } of wire.messages) assertLegacyServerMessage(message, method);
  });
});
