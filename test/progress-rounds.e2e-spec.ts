import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryMcpStore, McpModule, McpTool, ToolContext, type JsonValue, type McpToolContext } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';
import { startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { createTask, pollTask, taskCall } from './support/tasks-http.js';
import { until } from './support/waiting.js';
import { WireRecorder } from './support/wire-recorder.js';

interface Step {
  progress: number;
  total?: number;
  message?: string;
}

/** The sample's wizard answers: a project name, then a language. */
function wizardAnswer(message: string): { action: 'accept'; content: Record<string, string> } {
  return message.startsWith('Step 1') ? { action: 'accept', content: { project: 'atlas' } } : { action: 'accept', content: { language: 'java' } };
}

const EACH_STEP_ONCE: Step[] = [
  { progress: 1, total: 3, message: 'started' },
  { progress: 2, total: 3, message: 'named' },
  { progress: 3, total: 3, message: 'done' },
];

/**
 * What the server sent for each tools/call POST of the wizard: its progress values, then how the POST ended.
 * Read once the recorder holds all three final responses (each stream records its progress before its response).
 */
async function wizardPosts(wire: WireRecorder): Promise<Array<{ progress: number[]; ended: string }>> {
  const answers = () => wire.messages.filter(({ method }) => method === 'tools/call');
  await until(() => answers().length === 3, 'the three tools/call responses of the wizard', () => wire.messages);
  const posts: Array<{ progress: number[]; ended: string }> = [];
  let progress: number[] = [];
  for (const { message, method } of wire.messages) {
    if ((message as Json).method === 'notifications/progress') progress.push((message as Json).params.progress);
    if (method !== 'tools/call') continue;
    posts.push({ progress, ended: (message as Json).result.resultType ?? 'complete' });
    progress = [];
  }
  return posts;
}

/**
 * The sample's three-round `wizard` (progress, question, progress, question, progress) as the official
 * clients see it: the handler replays from the top each round, the client sees each progress step once.
 */
describe('progress across input rounds: each step once, in both eras (official clients)', () => {
  let started: StartedApp;
  const closing: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    started = await startApp([AppModule]);
  });

  afterEach(async () => {
    for (const client of closing.splice(0)) await client.close();
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('2026-07-28, client 2.x retrying with requestState: the server sends 1, 2, 3 once each, in order', async () => {
    const client = new Client({ name: 'progress-rounds-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return wizardAnswer(request.params.message);
    });
    const wire = new WireRecorder();
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url), { fetch: wire.fetch }));
    closing.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    const steps: Step[] = [];
    const result = await client.callTool({ name: 'wizard', arguments: {} }, { onprogress: ({ progress, total, message }) => steps.push({ progress, total, message }) });

    expect(asked).toEqual(['Step 1: project name?', 'Step 2: language?']);
    expect(result.structuredContent).toEqual({ project: 'atlas', language: 'java' });
    // Three requests, the handler run from the top in each: every step is sent by the round that reached it first.
    expect(await wizardPosts(wire)).toEqual([
      { progress: [1], ended: 'input_required' },
      { progress: [2], ended: 'input_required' },
      { progress: [3], ended: 'complete' },
    ]);
    // The client reports its own round markers through the same callback (no total); the server's steps come once.
    const own = /^Fulfilling input required by 'tools\/call' \(round \d\)$/;
    expect(steps.filter((step) => !own.test(step.message ?? ''))).toEqual(EACH_STEP_ONCE);
    expect(steps).toEqual([
      EACH_STEP_ONCE[0],
      { progress: 1, total: undefined, message: "Fulfilling input required by 'tools/call' (round 1)" },
      EACH_STEP_ONCE[1],
      { progress: 2, total: undefined, message: "Fulfilling input required by 'tools/call' (round 2)" },
      EACH_STEP_ONCE[2],
    ]);
  });

  it('2025-11-25 session, v1 SDK answering on the call stream: the same 1, 2, 3', async () => {
    const client = new LegacyClient({ name: 'progress-rounds-legacy-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return wizardAnswer(request.params.message);
    });
    const wire = new WireRecorder();
    const transport = new LegacyTransport(new URL(started.url), { fetch: wire.fetch });
    await client.connect(transport);
    closing.push(client);
    expect(transport.protocolVersion).toBe('2025-11-25');

    const steps: Step[] = [];
    const result = await client.callTool({ name: 'wizard', arguments: {} }, undefined, {
      onprogress: ({ progress, total, message }) => steps.push({ progress, total, message }),
    });

    expect(asked).toEqual(['Step 1: project name?', 'Step 2: language?']);
    expect(result.structuredContent).toEqual({ project: 'atlas', language: 'java' });
    expect(steps).toEqual(EACH_STEP_ONCE);
    // One call, its questions on the call's stream between the steps: each step on the wire once.
    await until(() => wire.messages.some(({ method }) => method === 'tools/call'), 'the wizard result', () => wire.messages);
    const sent = wire.messages.map(({ message }) => message as Json).filter((message) => message.method === 'notifications/progress' || message.method === 'elicitation/create');
    expect(sent.map((message) => (message.method === 'elicitation/create' ? message.params.message : message.params.progress))).toEqual([
      1,
      'Step 1: project name?',
      2,
      'Step 2: language?',
      3,
    ]);
  });
});

/** A promise the test opens: the task waits at a step until the test has seen it. */
class Gate {
  open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));
}

/** One gate per step, opened once: a replayed run passes the steps the test already saw. */
const reached = { started: new Gate(), named: new Gate(), done: new Gate() };

@Injectable()
class SetupTools {
  @McpTool({ name: 'setup', description: 'Progress between two questions, as a task', task: true })
  async setup(@ToolContext() ctx: McpToolContext): Promise<string> {
    const progress = ctx.countingProgress(3);
    progress.emit('started');
    await reached.started.opened;
    const name = await ctx.elicit('Name?', (schema) => schema.string('name', 'Name'));
    progress.emit('named');
    await reached.named.opened;
    const language = await ctx.elicit('Language?', (schema) => schema.string('language', 'Language'));
    progress.emit('done');
    await reached.done.opened;
    return `${name.getString('name')} in ${language.getString('language')}`;
  }
}

/** The real in-memory store, noting each statusMessage a task record takes: what a client polling tasks/get could see. */
class StatusNotingStore extends InMemoryMcpStore {
  readonly statusMessages = new Map<string, string[]>();

  override async compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean> {
    const swapped = await super.compareAndSet(key, expected, next, ttlMs);
    const message = (next as Json)?.statusMessage;
    if (swapped && typeof message === 'string') {
      const noted = this.statusMessages.get(key) ?? [];
      if (noted.at(-1) !== message) noted.push(message);
      this.statusMessages.set(key, noted);
    }
    return swapped;
  }
}

describe('progress across the runs of a task: its statusMessage moves forward only', () => {
  let started: StartedApp;
  const store = new StatusNotingStore();

  beforeAll(async () => {
    started = await startApp([McpModule.forRoot({ name: 'progress-rounds-tasks', version: '1.0.0', store: { instance: store } })], '/mcp', [SetupTools]);
  });

  afterAll(async () => {
    for (const gate of Object.values(reached)) gate.open();
    await started?.app.close();
  });

  /** Waits for the task's question (`message`) and answers it with `content`. */
  async function answer(taskId: string, message: string, content: Record<string, string>): Promise<void> {
    const waiting = await pollTask(started.url, taskId, (task) => task.status === 'input_required');
    const [[key, request]] = Object.entries(waiting.inputRequests as Record<string, Json>);
    expect(request.params.message).toBe(message);
    const ack = await taskCall(started.url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content } } });
    expect(ack.body.result.resultType).toBe('complete');
  }

  it('a run replaying the steps before its question does not write them again', async () => {
    const { taskId } = (await createTask(started.url, 'setup')).body.result;
    const seen = (statusMessage: string) => pollTask(started.url, taskId, (task) => task.statusMessage === statusMessage);
    await seen('1/3: started');
    reached.started.open();
    await answer(taskId, 'Name?', { name: 'atlas' });
    await seen('2/3: named');
    reached.named.open();
    await answer(taskId, 'Language?', { language: 'ts' });
    await seen('3/3: done');
    reached.done.open();
    const done = await pollTask(started.url, taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'atlas in ts' }]);
    // A completed task keeps its last step: a poller that missed it still reads it.
    expect(done.statusMessage).toBe('3/3: done');

    const [noted] = [...store.statusMessages].filter(([key]) => key.endsWith(taskId)).map(([, messages]) => messages);
    expect(noted).toEqual(['1/3: started', '2/3: named', '3/3: done']);
  });
});
