import { Injectable } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpArg, McpModule, McpTool, RedisMcpStore, ToolContext, type McpModuleOptions, type McpToolContext } from '../lib/index.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { callMcp, LEGACY_HEADERS, legacyInitialize, legacySessionHeaders, postMcp, rpc, sseEvents, standardHeaders, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { createTask, pollTask, TASKS, taskCall, WITH_TASKS, WITHOUT_TASKS } from './support/tasks-http.js';
import { assertLegacyServerMessage, assertMatchesDef } from './support/wire-schema.js';

/** A promise the test settles: handlers wait on it, so "still working" needs no timing. */
class Gate {
  opened!: () => void;
  readonly promise = new Promise<void>((resolve) => (this.opened = resolve));
}

/** What the handlers saw, for the test to read. */
class Probe {
  gate = new Gate();
  runs = 0;
  aborted = 0;
}

const probe = new Probe();

@Injectable()
class TaskTools {
  @McpTool({ name: 'report', description: 'A slow report with progress', task: true })
  async report(@McpArg('pages') pages: number, @ToolContext() ctx: McpToolContext): Promise<string> {
    const progress = ctx.countingProgress(pages);
    progress.emit('first page');
    await probe.gate.promise;
    return `Report of ${pages} pages`;
  }

  @McpTool({ name: 'confirm', description: 'Asks inside the task', task: true })
  async confirm(@McpArg('what') what: string, @ToolContext() ctx: McpToolContext): Promise<string> {
    probe.runs++;
    const answer = await ctx.elicit(`Delete ${what}?`, (schema) => schema.bool('ok', 'Delete'));
    return answer.isAccepted() && answer.getBool('ok') ? `Deleted ${what}` : `Kept ${what}`;
  }

  @McpTool({ name: 'blocking', description: 'Runs until cancelled', task: 'required' })
  async blocking(@ToolContext() ctx: McpToolContext): Promise<string> {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    probe.aborted++;
    return 'stopped';
  }

  @McpTool({ name: 'onboard', description: 'Asks within the call, then continues as a task', task: true, taskStart: 'explicit' })
  async onboard(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit('Your name?', (schema) => schema.string('name', 'Name'), { key: 'name' });
    await ctx.startTask();
    return `Welcome, ${answer.getString('name', '?')}`;
  }

  @McpTool({ name: 'plain', description: 'Never a task' })
  plain(): string {
    return 'plain';
  }
}

async function startTaskApp(options: McpModuleOptions = {}): Promise<StartedApp> {
  return startApp([McpModule.forRoot({ name: 'tasks-e2e', version: '1.0.0', ...options })], '/mcp', [TaskTools]);
}

/** The fields of a wire Task (the extension's schema is not in schema.json, so they are checked here). */
function expectTaskShape(task: Json): void {
  expect(typeof task.taskId).toBe('string');
  expect(task.taskId.length).toBeGreaterThanOrEqual(43);
  expect(['working', 'input_required', 'completed', 'failed', 'cancelled']).toContain(task.status);
  expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
  expect(new Date(task.lastUpdatedAt).toISOString()).toBe(task.lastUpdatedAt);
  expect(Number.isInteger(task.ttlMs) && task.ttlMs > 0).toBe(true);
  expect(Number.isInteger(task.pollIntervalMs) && task.pollIntervalMs > 0).toBe(true);
  for (const forbidden of ['requestState', 'ttl', 'pollInterval', 'task']) expect(task).not.toHaveProperty(forbidden);
}

describe('Tools as tasks (e2e, real HTTP)', () => {
  let started: StartedApp;
  beforeAll(async () => {
    started = await startTaskApp({ tasks: { pollInterval: 'PT0.5S' } });
  });
  afterAll(async () => {
    probe.gate.opened();
    await started?.app.close();
  });

  it('advertises the extension in server/discover (no legacy capabilities.tasks)', async () => {
    const reply = await callMcp(started.url, 'server/discover');
    expect(reply.body.result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(reply.body.result.capabilities).not.toHaveProperty('tasks');
  });

  it('runs a task tool synchronously for a client without the extension, and refuses a required one with -32021', async () => {
    probe.gate.opened();
    const sync = await callMcp(started.url, 'tools/call', { name: 'report', arguments: { pages: 2 } }, { meta: WITHOUT_TASKS });
    expect(sync.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Report of 2 pages' }] });
    const refused = await callMcp(started.url, 'tools/call', { name: 'blocking', arguments: {} }, { meta: WITHOUT_TASKS });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    probe.gate = new Gate();
  });

  it('creates a task once stored, shows progress while working, then the result', async () => {
    const created = await createTask(started.url, 'report', { pages: 3 });
    const task = created.body.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 500 });
    expectTaskShape(task);
    for (const absent of ['result', 'error', 'inputRequests', 'content']) expect(task).not.toHaveProperty(absent);
    // Durable: an immediate read finds it.
    const first = await taskCall(started.url, 'tasks/get', { taskId: task.taskId });
    expect(first.body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId });
    const progressed = await pollTask(started.url, task.taskId, (seen) => seen.statusMessage === '1/3: first page');
    expect(progressed.status).toBe('working');
    probe.gate.opened();
    const done = await pollTask(started.url, task.taskId, (seen) => seen.status === 'completed');
    expectTaskShape(done);
    assertMatchesDef(done.result, 'CallToolResult');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report of 3 pages' }]);
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
  });

  it('asks inside the task: input_required with inputRequests, answered by tasks/update; a duplicate update resumes nothing', async () => {
    probe.runs = 0;
    const { taskId } = (await createTask(started.url, 'confirm', { what: 'draft.txt' })).body.result;
    const waiting = await pollTask(started.url, taskId, (seen) => seen.status === 'input_required');
    expectTaskShape(waiting);
    const [key] = Object.keys(waiting.inputRequests);
    expect(waiting.inputRequests[key]).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete draft.txt?' } });
    const answer = { inputResponses: { [key]: { action: 'accept', content: { ok: true } } } };
    const ack = await taskCall(started.url, 'tasks/update', { taskId, ...answer });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const again = await taskCall(started.url, 'tasks/update', { taskId, ...answer });
    expect(again.body.result.resultType).toBe('complete');
    const done = await pollTask(started.url, taskId, (seen) => seen.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Deleted draft.txt' }]);
    expect(probe.runs).toBe(2); // the first run asked, the replay finished; the duplicate ran nothing
  });

  it('ignores answers to keys that are not outstanding, and still acknowledges', async () => {
    const { taskId } = (await createTask(started.url, 'confirm', { what: 'x' })).body.result;
    await pollTask(started.url, taskId, (seen) => seen.status === 'input_required');
    const ack = await taskCall(started.url, 'tasks/update', { taskId, inputResponses: { 'unknown-key': { ignored: true } } });
    expect(ack.body.result.resultType).toBe('complete');
    expect((await taskCall(started.url, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
  });

  it('cancels cooperatively: the ack is empty, the task reads cancelled, the handler signal fires', async () => {
    const abortedBefore = probe.aborted;
    const { taskId } = (await createTask(started.url, 'blocking')).body.result;
    const ack = await taskCall(started.url, 'tasks/cancel', { taskId });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const cancelled = await pollTask(started.url, taskId, (seen) => seen.status === 'cancelled');
    expect(cancelled).not.toHaveProperty('result');
    await pollTask(started.url, taskId, () => probe.aborted > abortedBefore);
    // Terminal is final: the handler's late "stopped" is dropped, a second cancel gets the same ack.
    expect((await taskCall(started.url, 'tasks/cancel', { taskId })).body.result.resultType).toBe('complete');
    expect((await taskCall(started.url, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
  });

  it('a 2025 session that declared the extension at initialize: never advertised, task tools run as plain calls, a required one is -32600, tasks/get is unknown', async () => {
    const declared = { ...legacyInitialize(), params: { ...legacyInitialize().params, capabilities: { elicitation: {}, extensions: { [TASKS]: {} } } } };
    const opened = await postMcp(started.url, declared, { headers: LEGACY_HEADERS, skipSchema: true });
    assertLegacyServerMessage(opened.body, 'initialize');
    expect(opened.body.result.capabilities).not.toHaveProperty('extensions');
    expect(opened.body.result.capabilities).not.toHaveProperty('tasks');
    const session = legacySessionHeaders(opened.headers.get('mcp-session-id')!);
    const inSession = (id: number, method: string, params: Record<string, unknown>) =>
      postMcp(started.url, { jsonrpc: '2.0', id, method, params }, { headers: session, skipSchema: true });

    probe.gate.opened();
    const plain = await inSession(2, 'tools/call', { name: 'report', arguments: { pages: 2 } });
    expect(plain.body.result).toEqual({ content: [{ type: 'text', text: 'Report of 2 pages' }] });
    probe.gate = new Gate();
    const required = await inSession(3, 'tools/call', { name: 'blocking', arguments: {} });
    expect(required.status).toBe(200);
    expect(required.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Task augmentation required for tools\/call requests/) });
    const get = await inSession(4, 'tasks/get', { taskId: 'no-such-task' });
    expect(get.body.error.code).toBe(-32601);
    for (const [reply, method] of [[plain, 'tools/call'], [required, 'tools/call'], [get, 'tasks/get']] as const) {
      for (const message of reply.messages) assertLegacyServerMessage(message, method);
    }
  });

  it('refuses a subscriptions/listen that asks for task notifications without the extension (-32021); with it, the listen is acknowledged without taskIds, as none are sent', async () => {
    const undeclared = await callMcp(started.url, 'subscriptions/listen', { notifications: { taskIds: ['some-task'] } }, { meta: WITHOUT_TASKS });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    const body = rpc('subscriptions/listen', { notifications: { taskIds: ['some-task'], toolsListChanged: true } }, { meta: WITH_TASKS });
    const stop = new AbortController();
    const response = await fetch(started.url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: stop.signal });
    try {
      const ack = await sseEvents(response)();
      expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } });
      expect(ack.params.notifications).not.toHaveProperty('taskIds');
    } finally {
      stop.abort();
    }
  });

  it('answers -32602 for unknown ids, -32021 without the extension, -32020 for a wrong Mcp-Name, -32601 for tasks/result and tasks/list', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const unknown = await taskCall(started.url, method, { taskId: 'no-such-task', inputResponses: {} });
      expect(unknown.body.error.code).toBe(-32602);
      const undeclared = await taskCall(started.url, method, { taskId: 'no-such-task', inputResponses: {} }, WITHOUT_TASKS);
      expect(undeclared.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    }
    const { taskId } = (await createTask(started.url, 'blocking')).body.result;
    const mismatch = await callMcp(started.url, 'tasks/get', { taskId }, { meta: WITH_TASKS, headers: { 'mcp-name': 'another-task' } });
    expect(mismatch.body.error.code).toBe(-32020);
    await taskCall(started.url, 'tasks/cancel', { taskId });
    for (const method of ['tasks/result', 'tasks/list']) {
      expect((await callMcp(started.url, method, { taskId }, { meta: WITH_TASKS })).body.error.code).toBe(-32601);
    }
  });

  it("taskStart 'explicit': questions first as input_required rounds of the call, then the task; synchronous without the extension", async () => {
    for (const meta of [WITH_TASKS, WITHOUT_TASKS]) {
      const asked = await callMcp(started.url, 'tools/call', { name: 'onboard', arguments: {} }, { meta });
      expect(asked.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
      expect(asked.body.result).not.toHaveProperty('taskId');
      const retry = { name: 'onboard', arguments: {}, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState: asked.body.result.requestState };
      const answered = (await callMcp(started.url, 'tools/call', retry, { meta })).body.result;
      if (meta === WITHOUT_TASKS) {
        expect(answered).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Welcome, Ada' }] });
        continue;
      }
      expect(answered.resultType).toBe('task');
      expectTaskShape(answered);
      expect(answered).not.toHaveProperty('inputRequests');
      const done = await pollTask(started.url, answered.taskId, (seen) => seen.status === 'completed');
      expect(done.result.content).toEqual([{ type: 'text', text: 'Welcome, Ada' }]);
    }
  });

  it('sends nothing but the CreateTaskResult on the tools/call stream, even with a progressToken', async () => {
    probe.gate = new Gate();
    const created = await callMcp(started.url, 'tools/call', { name: 'report', arguments: { pages: 1 } }, { meta: { ...WITH_TASKS, progressToken: 'p1' } });
    expect(created.messages).toHaveLength(1);
    expect(created.body.result.resultType).toBe('task');
    probe.gate.opened();
    await pollTask(started.url, created.body.result.taskId, (seen) => seen.status === 'completed');
  });
});

describe('Task expiry (e2e)', () => {
  let started: StartedApp;
  beforeAll(async () => {
    started = await startTaskApp({ tasks: { ttl: 'PT0.4S' } });
  });
  afterAll(() => started?.app.close());

  it('keeps a finished task until its TTL from creation, then answers -32602', async () => {
    const created = (await createTask(started.url, 'confirm', { what: 'expiring' })).body.result;
    expect(created.ttlMs).toBe(400);
    await pollTask(started.url, created.taskId, (seen) => seen.code === -32602);
  });
});

const redisServer = findBinary('redis-server');

describe('Tasks across two instances on one real Redis (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the two-instance tasks tests');
    return;
  }
  let redis: LocalService & { url: string };
  let a: StartedApp;
  let b: StartedApp;
  let store: RedisMcpStore;
  beforeAll(async () => {
    redis = await startRedis(redisServer);
    // Renewed every lease/3 (1 s): a live instance keeps it through a 2 s stall of a busy machine (0.6 s gave 0.4 s).
    const options: McpModuleOptions = { store: { redisUrl: redis.url }, tasks: { lease: 'PT3S' } };
    [a, b] = await Promise.all([startTaskApp(options), startTaskApp(options)]);
    store = await RedisMcpStore.connect(redis.url);
  });
  afterAll(async () => {
    await Promise.all([a?.app.close(), b?.app.close()]);
    await store?.close();
    await redis?.stop();
  });

  it('creates on A, reads and answers on B, completes', async () => {
    const { taskId } = (await createTask(a.url, 'confirm', { what: 'shared.txt' })).body.result;
    const waiting = await pollTask(b.url, taskId, (seen) => seen.status === 'input_required');
    const [key] = Object.keys(waiting.inputRequests);
    await taskCall(b.url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { ok: true } } } });
    const done = await pollTask(a.url, taskId, (seen) => seen.status === 'completed');
    expect(done.result.content[0].text).toBe('Deleted shared.txt');
  });

  it('cancels on B a task running on A: A notices at its next lease renewal and fires the signal', async () => {
    const abortedBefore = probe.aborted;
    const { taskId } = (await createTask(a.url, 'blocking')).body.result;
    expect((await taskCall(b.url, 'tasks/get', { taskId })).body.result.status).toBe('working');
    await taskCall(b.url, 'tasks/cancel', { taskId });
    await pollTask(a.url, taskId, () => probe.aborted > abortedBefore);
    expect((await taskCall(a.url, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
  });

  it('reads a working task whose lease ran out (its instance died) as failed', async () => {
    const { taskId } = (await createTask(a.url, 'confirm', { what: 'template' })).body.result;
    // Stand-in for a killed instance (the real kill -9 is tasks-instance-death.e2e-spec.ts): a
    // working record whose lease nobody renews, with no handler running anywhere.
    const template = (await store.get<Json>(`task:${taskId}`))!;
    const deadId = `dead-${taskId}`;
    await store.set(`task:${deadId}`, { ...template, taskId: deadId, status: 'working', leaseExpiresAt: Date.now() - 1 }, 60_000);
    const failed = (await taskCall(b.url, 'tasks/get', { taskId: deadId })).body.result;
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed.error.message).toMatch(/instance running this task stopped/);
  });
});
