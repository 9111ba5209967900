import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { bootstrapStdio, McpArg, McpModule, McpTool, ToolContext, type McpStdioServer, type McpToolContext } from '../lib/index.js';
import { LogTranscript, type PrintedLine } from './support/log-transcript.js';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { createTask, pollTask, taskCall } from './support/tasks-http.js';
import { until, within } from './support/waiting.js';
import { startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

/** What a client put in an id (or a reason, or an argument) to write a fake error line of its own, in red. */
const FORGERY = '\n[Nest] 999  - 01/01/2026, 12:00:00 AM   ERROR [McpModule] forged by the client\u001b[31m';

/** Resolves when the `until-cancelled` tool has started; reset per test. */
let started: { promise: Promise<void>; resolve: () => void };
function expectStart(): void {
  let resolve!: () => void;
  started = { promise: new Promise<void>((done) => (resolve = done)), resolve };
}
expectStart();

@Injectable()
class CarelessTools {
  @McpTool({ name: 'until-cancelled', description: 'Waits for its signal, then fails as careless code does: with whatever the signal says' })
  async untilCancelled(@ToolContext() ctx: McpToolContext): Promise<string> {
    started.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    ctx.signal.throwIfAborted();
    return 'not reached';
  }

  @McpTool({ name: 'until-cancelled-task', description: 'The same, run as a task', task: true })
  async untilCancelledTask(@ToolContext() ctx: McpToolContext): Promise<string> {
    return this.untilCancelled(ctx);
  }

  @McpTool({ name: 'shout', description: 'Fails unexpectedly, quoting what it was given in its error' })
  shout(@McpArg('text') text: string): never {
    throw new Error(`cannot shout ${text}`);
  }

  @McpTool({ name: 'ask', description: 'Asks the user a yes/no question' })
  async ask(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit('Go on?', (schema) => schema.bool('ok', 'Go on'));
    return answer.isAccepted() ? 'went on' : 'stopped';
  }
}

@Module({
  // A short wait for a 2025 client's answer, which the test's silent client is sure to reach.
  imports: [McpModule.forRoot({ name: 'log-safety', version: '1.0.0', session: { inputTimeout: 'PT0.5S' } })],
  providers: [CarelessTools],
})
class LogSafetyModule {}

/** Nothing a client can do writes a line of its own, or an escape sequence, into the printed log. */
function expectNoForgery(log: LogTranscript): void {
  expect(log.text).not.toMatch(/[\u001b\u009b]/);
  expect(log.lines.filter((line) => line.text.startsWith('[Nest] 999'))).toEqual([]);
}

/** A client's own doing: logged at debug level on one line with no stack, and nothing at error or warn level. */
function expectClientEvent(log: LogTranscript, fragment: string): PrintedLine {
  const lines = log.entries(fragment);
  expect(lines.map((line) => line.level)).toEqual(['DEBUG']);
  expect(log.lines.filter((line) => line.level === 'ERROR' || line.level === 'WARN' || line.level === 'FATAL')).toEqual([]);
  expect(log.continuations).toEqual([]);
  return lines[0];
}

describe('logs a client cannot forge, and client events that are not server errors (e2e, HTTP)', () => {
  let app: ReliabilityApp;
  const log = new LogTranscript();
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await startReliabilityApp({ logger: log }, LogSafetyModule);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await app?.app.close();
  });
  beforeEach(() => {
    log.clear();
    expectStart();
  });

  async function post(body: Json, signal?: AbortSignal): Promise<Response> {
    return fetch(app.url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal });
  }

  /** A 2025 client (the v1 SDK over Streamable HTTP) that answers questions with `answer`. */
  async function legacyClient(answer?: () => Promise<Json>): Promise<Client> {
    const client = new Client({ name: 'log-safety', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    if (answer) client.setRequestHandler(ElicitRequestSchema, answer as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
    clients.push(client);
    return client;
  }

  it('an id and an argument with a newline and ANSI colour codes are escaped in the error log: no forged line, no escape sequence', async () => {
    const id = `call-1${FORGERY}`;
    const response = await post(rpc('tools/call', { name: 'shout', arguments: { text: `hello${FORGERY}` } }, { id }));
    const body = (await response.json()) as Json;
    expect(body.id).toBe(id);
    const ref = /^Internal error \(ref ([0-9a-f]{16})\)$/.exec(body.result.content[0].text)?.[1];
    expect(ref).toBeDefined();
    const [logged] = log.entries(`ref ${ref}`);
    expect(logged.level).toBe('ERROR');
    expect(logged.message).toBe(
      `Tool "shout" failed (request call-1\\n[Nest] 999  - 01/01/2026, 12:00:00 AM   ERROR [McpModule] forged by the client\\u001b[31m, ref ${ref}): ` +
        'cannot shout hello\\n[Nest] 999  - 01/01/2026, 12:00:00 AM   ERROR [McpModule] forged by the client\\u001b[31m',
    );
    expectNoForgery(log);
    // A server fault keeps its stack, whose first line (the message) is escaped too; the rest are frames.
    const [head, ...frames] = log.continuations;
    expect(head).toBe('Error: cannot shout hello\\n[Nest] 999  - 01/01/2026, 12:00:00 AM   ERROR [McpModule] forged by the client\\u001b[31m');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => /^\s+at /.test(frame))).toBe(true);
  });

  it('a 2025 client cancelling its own call (v1 SDK) whose tool then fails: one debug line, no stack, nothing at error level; the reason escaped', async () => {
    const client = await legacyClient();
    const controller = new AbortController();
    const call = client.callTool({ name: 'until-cancelled', arguments: {} }, undefined, { signal: controller.signal }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await within(started.promise, 'the tool to start');
    controller.abort(`gave up${FORGERY}`);
    expect(await call).toBeInstanceOf(McpError);
    await until(() => log.entries('tools/call').length > 0, 'the line about the cancelled call', () => log.text);
    const line = expectClientEvent(log, 'tools/call');
    expect(line.message).toMatch(/^tools\/call "until-cancelled" \(request \d+\) stopped after its call ended \(gave up\\n\[Nest\] 999 .*\\u001b\[31m\): /);
    expectNoForgery(log);
  });

  it('a 2026-07-28 client closing its response stream mid-call whose tool then fails: one debug line, no stack', async () => {
    const controller = new AbortController();
    const reply = post(rpc('tools/call', { name: 'until-cancelled', arguments: {} }, { id: 'closing-1' }), controller.signal).catch((error: unknown) => error);
    await within(started.promise, 'the tool to start');
    controller.abort();
    await reply;
    await until(() => log.entries('closing-1').length > 0, 'the line about the abandoned call', () => log.text);
    expect(expectClientEvent(log, 'closing-1').message).toContain('(The client closed the response stream)');
  });

  it('a client cancelling its task (tasks/cancel) whose tool then fails: one debug line, no stack, and the task stays cancelled', async () => {
    const created = await createTask(app.url, 'until-cancelled-task');
    const taskId = created.body.result.taskId as string;
    await within(started.promise, 'the task to start');
    expect((await taskCall(app.url, 'tasks/cancel', { taskId })).body.error).toBeUndefined();
    await until(() => log.entries('until-cancelled-task').length > 0, 'the line about the cancelled task', () => log.text);
    expect(expectClientEvent(log, 'until-cancelled-task').message).toContain('(The task was cancelled)');
    expect((await pollTask(app.url, taskId, () => true)).status).toBe('cancelled');
  });

  it('a 2025 client answering a question with an error (declined): one debug line, and the call gets the error', async () => {
    const client = await legacyClient(async () => {
      throw new Error(`no thanks${FORGERY}`);
    });
    const error = await client.callTool({ name: 'ask', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as McpError).message).toContain('answered elicitation/create with error');
    await until(() => log.entries('with an error').length > 0, 'the line about the declined question', () => log.text);
    expect(expectClientEvent(log, 'with an error').message).toContain('no thanks\\n[Nest] 999');
    expectNoForgery(log);
  });

  it('a 2025 client that does not answer a question in time (its own timeout): one debug line, and the call gets -31008', async () => {
    const client = await legacyClient(() => new Promise(() => undefined));
    const error = await client.callTool({ name: 'ask', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as McpError).code).toBe(-31008);
    expectClientEvent(log, 'did not answer elicitation/create within 500 ms');
  });
});

/** The v1 SDK client's own protocol over the stdio server's pipes (its transport spawns a process; the pipes are the same). */
class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

describe('client events that are not server errors (e2e, stdio)', () => {
  const log = new LogTranscript();
  let server: McpStdioServer;
  let client: Client;

  beforeAll(async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    server = await bootstrapStdio(LogSafetyModule, { input, output, logger: log, exitOnClose: false, handleSignals: false });
    client = new Client({ name: 'log-safety-stdio', version: '1.0.0' });
    await client.connect(new PipeTransport(input, output));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  beforeEach(() => {
    log.clear();
    expectStart();
  });

  it('a 2025 client cancelling its own call (v1 SDK) whose tool then fails: one debug line, no stack, nothing at error level', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'until-cancelled', arguments: {} }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    await within(started.promise, 'the tool to start');
    controller.abort(`gave up${FORGERY}`);
    expect(await call).toBeInstanceOf(McpError);
    await until(() => log.entries('tools/call').length > 0, 'the line about the cancelled call', () => log.text);
    expect(expectClientEvent(log, 'tools/call').message).toContain('gave up\\n[Nest] 999');
    expectNoForgery(log);
  });
});
