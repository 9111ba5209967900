import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, InitializeResultSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { Injectable, Module, type LoggerService } from '@nestjs/common';
import { bootstrapStdio, McpArg, McpModule, McpRegistry, McpTool, ToolContext, type McpToolContext } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';
import { HttpAppModule } from '../sample/http-app.module.js';
import { startApp } from './support/mcp-http.js';
import { JsonLines, PATIENCE_MS, StreamText, until, within } from './support/waiting.js';

/**
 * The sample served over stdio (`dist/sample/main-stdio.js`), spawned as a child process the way
 * desktop clients start local servers: first driven by the official client's stdio transport, then
 * through raw pipes for what a well-behaved client never sends.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'dist/sample/main-stdio.js';
/** The same sample bundled by `npm run build:stdio` (scripts/bundle-stdio.mjs), the fast-start recipe of docs/guide/stdio.md. */
const BUNDLE = 'dist/sample/main-stdio.bundle.js';
/** Lists the tools with both SDK clients, started with no `cwd` from a process in another directory. */
const NO_CWD_CLIENTS = join(ROOT, 'test/src/stdio-clients-no-cwd.fixture.mjs');
/** Run-time registration and resource updates on a trigger (plain JavaScript on dist/lib). */
const FEEDS_ENTRY = 'test/src/stdio-feeds.fixture.mjs';
const PROTOCOL_VERSION = '2026-07-28';
/** The bridge desktop clients use to reach a remote server: stdio on one side, Streamable HTTP on the other. */
const MCP_REMOTE = join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Msg = Record<string, any>;

const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  ...extra,
});

const request = (id: number | string, method: string, params: Record<string, unknown> = {}, metaExtra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(metaExtra) } });

/** 2025-era lines: an initialize that opens the session, and requests without the 2026-07-28 `_meta`. */
const initialize = (id: number | string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const legacyRequest = (id: number | string, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One turn of the event loop: what microtasks were queued has run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeAll(() => {
  // jest runs the TypeScript sources; the child process needs the compiled sample.
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc still emits on type errors, and `npm test` type-checks before jest; only a missing build is fatal here.
    const diagnostics = String((error as { stdout?: Buffer }).stdout ?? error);
    if (!existsSync(join(ROOT, ENTRY))) throw new Error(`Building the sample failed:\n${diagnostics}`);
    console.warn(`tsc reported errors; testing the emitted build anyway:\n${diagnostics}`);
  }
  execFileSync(process.execPath, ['scripts/bundle-stdio.mjs'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

describe('stdio: the official @modelcontextprotocol/client against the sample', () => {
  let client: Client;
  let stderr: StreamText;

  beforeEach(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY], cwd: ROOT, stderr: 'pipe' });
    // stderr: 'pipe' makes it a PassThrough (typed as a bare Stream).
    stderr = new StreamText("the sample's stderr", transport.stderr as PassThrough);
    client = new Client(
      { name: 'nest-mcp-stdio-e2e', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } },
    );
    await client.connect(transport);
  });

  afterEach(async () => {
    await client?.close();
  });

  it('connects at 2026-07-28 and reads the discover result', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(PROTOCOL_VERSION);
    expect(client.getServerVersion()).toEqual(expect.objectContaining({ name: 'nest-mcp-sample', version: '0.1.0' }));
    expect(client.getServerCapabilities()).toEqual(expect.objectContaining({ tools: expect.any(Object) }));
  });

  it('lists the sample tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['hello', 'echo', 'notify', 'shout', 'create-user', 'process', 'onboard', 'upgrade-plan', 'wizard', 'quarterly-report', 'forecast', 'notes_list', 'notes_get', 'notes_create', 'notes_update', 'notes_delete', 'notes_import']);
  });

  it('calls hello (structuredContent)', async () => {
    const result = await client.callTool({ name: 'hello', arguments: { name: 'Stdio' } });
    expect(result.structuredContent).toEqual({ message: 'Hello, Stdio!' });
    expect(result.content).toEqual([{ type: 'text', text: '{"message":"Hello, Stdio!"}' }]);
  });

  it('receives progress notifications via onprogress (process)', async () => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    // A notification read in the same chunk as its result would reach a retired handler and be
    // reported here (the client runs notification handlers a microtask late); the server's pause
    // behind notifications keeps that from happening (issue 35).
    // The pause is a bound, not a guarantee: a client kept off the CPU longer than it (a saturated
    // machine) still meets one late. Such a notification was sent in order; count it as delivered here,
    // the many-calls tests below measure how often it happens.
    const late: Array<{ progress: number; total?: number; message?: string }> = [];
    client.onerror = (error) => {
      const match = /unknown token: (.*)$/s.exec(error.message);
      if (!match) throw error;
      const { progress: value, total, message } = (JSON.parse(match[1]) as Msg).params as Msg;
      late.push({ progress: value, total, message });
    };
    const result = await client.callTool(
      { name: 'process', arguments: { data: 'twelve chars' } },
      { onprogress: (update) => progress.push({ progress: update.progress, total: update.total, message: update.message }) },
    );
    // Late ones are reported a microtask after the response resolves; a turn of the event loop later they are all in.
    await nextTurn();
    expect([...progress, ...late]).toEqual([
      { progress: 1, total: 3, message: 'parsed' },
      { progress: 2, total: 3, message: 'transformed' },
      { progress: 3, total: 3, message: 'stored' },
    ]);
    expect(result.structuredContent).toEqual({ result: 'Done: processed 12 characters' });
  });

  it('completes an elicitation round trip (onboard) through the client MRTR driver', async () => {
    const asked: Msg[] = [];
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params as Msg);
      return { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } };
    });
    const result = await client.callTool({ name: 'onboard', arguments: {} });
    expect(asked).toEqual([expect.objectContaining({ mode: 'form', message: 'Please enter your details' })]);
    expect(result.structuredContent).toEqual({ message: 'Welcome, Ada!' });
  });

  it('a logging tool writes to stderr, never to the protocol stream', async () => {
    const result = await client.callTool({ name: 'notify', arguments: { message: 'ping from stdio' } });
    expect(result.isError).toBeFalsy();
    // stderr is a separate pipe: its line can come after the response.
    await stderr.contains('notification: ping from stdio');
  });
});

/** The sample with raw pipes: every stdout line is collected (and must parse), stderr kept as text. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: JsonLines;
  readonly stderr: StreamText;
  /** The exit, once all output is read ('close', not 'exit'). */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /**
   * @param cwd where the process starts: desktop clients start servers from their own directory.
   * @param entry the compiled sample (tsc's output) or its bundle.
   */
  constructor(cwd = ROOT, entry = ENTRY) {
    this.child = spawn(process.execPath, [join(ROOT, entry)], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stdout = new JsonLines("the sample's stdout", this.child.stdout);
    this.stderr = new StreamText("the sample's stderr", this.child.stderr);
    this.closed = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  get messages(): Msg[] {
    return this.stdout.messages;
  }

  send(text: string): void {
    this.child.stdin.write(text);
  }

  waitFor(predicate: (message: Msg) => boolean): Promise<Msg> {
    return this.stdout.waitFor(predicate);
  }

  response(id: number | string): Promise<Msg> {
    return this.stdout.response(id);
  }

  /** Closes stdin and waits for the process to exit on its own: every call still in flight has written all it will. */
  async endInput(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return within(this.closed, 'the sample to exit after stdin closed', () => this.stderr.text);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

describe('stdio: raw pipes', () => {
  let server: RawServer;

  beforeEach(async () => {
    server = new RawServer();
    // server/discover must work as the very first message (dual-era probing).
    server.send(`${request('discover', 'server/discover')}\n`);
    const discover = await server.response('discover');
    expect(discover.result).toEqual(expect.objectContaining({ resultType: 'complete', supportedVersions: expect.arrayContaining([PROTOCOL_VERSION]) }));
  });

  afterEach(() => {
    server?.kill();
  });

  it('answers a malformed line with -32700 (id null) and goes on serving', async () => {
    server.send('{"jsonrpc":"2.0","id":1,"method":\n');
    server.send(`${request(2, 'tools/call', { name: 'echo', arguments: { message: 'still here' } })}\n`);
    const parseError = await server.waitFor((message) => message.error?.code === -32700);
    expect(parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    const echo = await server.response(2);
    expect(echo.result.content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('rejects invalid envelopes with -32600 and ignores client responses and unknown notifications', async () => {
    server.send('[]\n');
    server.send(`${JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' })}\n`);
    server.send(`${JSON.stringify({ jsonrpc: '2.0', id: 99, result: {} })}\n`);
    server.send(`${INITIALIZED}\n`);
    server.send(`${request(8, 'tools/list')}\n`);
    await server.response(8);
    const errors = server.messages.filter((message) => 'error' in message);
    expect(errors).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches') } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('jsonrpc') } },
    ]);
    expect(server.messages.some((message) => message.id === 99)).toBe(false);
  });

  it('handles \\r\\n line endings and a message split across writes', async () => {
    const line = request(3, 'tools/call', { name: 'hello', arguments: { name: 'Split' } });
    // The head rides with a whole request: once that is answered, the server has read the head alone.
    server.send(`${request(2, 'tools/list')}\n${line.slice(0, 20)}`);
    await server.response(2);
    server.send(`${line.slice(20)}\r\n`);
    const hello = await server.response(3);
    expect(hello.result.structuredContent).toEqual({ message: 'Hello, Split!' });
  });

  it('writes nothing but JSON-RPC lines on stdout, and logs on stderr', async () => {
    server.send(`${request(4, 'tools/call', { name: 'notify', arguments: { message: 'to stderr' } })}\n`);
    server.send('garbage\n');
    await server.response(4);
    await server.waitFor((message) => message.error?.code === -32700);
    expect(server.stdout.lines.length).toBeGreaterThan(0);
    for (const line of server.stdout.lines) {
      expect(JSON.parse(line)).toEqual(expect.objectContaining({ jsonrpc: '2.0' }));
      expect(line).toBe(JSON.stringify(JSON.parse(line)));
    }
    expect(server.stdout.trailing).toBe('');
    // stderr is a separate pipe: its data can arrive after the stdout line that answers the call.
    await server.stderr.contains('notification: to stderr');
    expect(server.stderr.text).toContain('MCP server listening on stdio');
    expect(server.stderr.text).toContain('Mapped 17 tool(s)');
  });

  it('notifications/cancelled stops a request: nothing more is written for it', async () => {
    // A listen stream is the slowest request there is: it only ends when cancelled or at shutdown.
    server.send(`${request('listen-1', 'subscriptions/listen', { notifications: { toolsListChanged: true } })}\n`);
    await server.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged');
    // process pauses between its steps; the cancel in the same write lands before its first step.
    server.send(
      `${request(5, 'tools/call', { name: 'process', arguments: { data: 'abc' } }, { progressToken: 'p5' })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } })}\n`,
    );
    server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } })}\n`);
    // Unknown and malformed cancels are ignored without an answer.
    server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12345 } })}\n`);
    server.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })}\n`);
    // Lines are handled in order: by this answer every cancel has been acted on.
    server.send(`${request(6, 'tools/list')}\n`);
    await server.response(6);

    // A cancelled id is free again: an id still in flight would be refused as already in use.
    server.send(`${request(5, 'tools/call', { name: 'echo', arguments: { message: 'again' } })}\n`);
    expect((await server.response(5)).result.content).toEqual([{ type: 'text', text: 'again' }]);

    // On EOF the server drains the calls in flight and ends listen streams with a result before it
    // exits: whatever a missed cancel left running has written everything it ever will.
    expect(await server.endInput()).toEqual({ code: 0, signal: null });
    expect(server.messages.filter((message) => message.params?.progressToken === 'p5')).toEqual([]);
    expect(server.messages.filter((message) => message.id === 5)).toEqual([expect.objectContaining({ result: expect.objectContaining({ content: [{ type: 'text', text: 'again' }] }) })]);
    expect(server.messages.filter((message) => message.id === 'listen-1' || message.params?.requestId === 'listen-1')).toEqual([]);
    expect(server.messages.filter((message) => 'error' in message)).toEqual([]);
  });

  it('on EOF finishes in-flight calls, ends listen streams (result, then notifications/cancelled) and exits 0', async () => {
    server.send(`${request('listen-2', 'subscriptions/listen', { notifications: { toolsListChanged: true } })}\n`);
    await server.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged');
    server.send(`${request(9, 'tools/call', { name: 'process', arguments: { data: 'drained' } }, { progressToken: 'p9' })}\n`);

    // It exits on its own, because stdin closed, once the drain is done.
    expect(await server.endInput()).toEqual({ code: 0, signal: null });
    // The drain waited for the call, not for the listen stream (which only shutdown ends): it did not run into its bound.
    expect(server.stderr.text).not.toContain('did not finish within');

    const processed = server.messages.find((message) => message.id === 9);
    expect(processed?.result.structuredContent).toEqual({ result: 'Done: processed 7 characters' });
    expect(server.messages.filter((message) => message.params?.progressToken === 'p9')).toHaveLength(3);

    const listenResult = server.messages.findIndex((message) => message.id === 'listen-2' && 'result' in message);
    const listenCancel = server.messages.findIndex((message) => message.method === 'notifications/cancelled' && message.params?.requestId === 'listen-2');
    expect(server.messages[listenResult].result).toEqual(
      expect.objectContaining({ resultType: 'complete', _meta: expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': 'listen-2' }) }),
    );
    expect(listenCancel).toBe(listenResult + 1);
    expect(server.stdout.trailing).toBe('');
  });

  it('exits 0 on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await within(server.closed, 'the sample to exit after SIGTERM', () => server.stderr.text)).toEqual({ code: 0, signal: null });
  });
});

describe('stdio: requests written before the server is ready', () => {
  let server: RawServer | undefined;

  afterEach(() => {
    server?.kill();
  });

  // The write happens in the tick that spawns the process, long before Nest has started: clients
  // send their first requests at once and must get every answer, none lost to the start-up.
  it('answers every request of one early write exactly once, matched by id, and honours an early cancel', async () => {
    server = new RawServer();
    const echo = (id: number) => request(id, 'tools/call', { name: 'echo', arguments: { message: `echo ${id}` } });
    server.send(
      [
        request('discover', 'server/discover'),
        request(1, 'tools/list'),
        request(2, 'tools/call', { name: 'process', arguments: { data: 'early' } }, { progressToken: 'p2' }),
        echo(3),
        request(4, 'tools/call', { name: 'process', arguments: { data: 'cancelled' } }, { progressToken: 'p4' }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'changed my mind' } }),
        echo(5),
        INITIALIZED,
        echo(6),
        '',
      ].join('\n'),
    );
    await server.response(2);
    for (const id of ['discover', 1, 3, 5, 6]) await server.response(id);
    // Exiting on EOF drains what is in flight: anything still owed for the cancelled call 4 is written by then.
    expect(await server.endInput()).toEqual({ code: 0, signal: null });
    const responses = server.messages.filter((message) => 'id' in message);
    expect(responses.map((message) => message.id).sort()).toEqual([1, 2, 3, 5, 6, 'discover'].sort());
    expect(responses.filter((message) => 'error' in message)).toEqual([]);

    const byId = (id: unknown) => responses.find((message) => message.id === id)!;
    expect(byId('discover').result).toEqual(expect.objectContaining({ resultType: 'complete', supportedVersions: expect.arrayContaining([PROTOCOL_VERSION]) }));
    expect(byId(1).result.tools.map((tool: Msg) => tool.name)).toContain('echo');
    expect(byId(2).result.structuredContent).toEqual({ result: 'Done: processed 5 characters' });
    for (const id of [3, 5, 6]) expect(byId(id).result.content).toEqual([{ type: 'text', text: `echo ${id}` }]);
    // Calls of the same kind come back in the order they were written.
    const echoOrder = responses.filter((message) => [3, 5, 6].includes(message.id)).map((message) => message.id);
    expect(echoOrder).toEqual([3, 5, 6]);
    // The progress of call 2: every step once, in order, before its result; none for the cancelled call 4.
    const progressOf = (token: string) => server!.messages.filter((message) => message.method === 'notifications/progress' && message.params.progressToken === token);
    expect(progressOf('p2').map((message) => message.params.progress)).toEqual([1, 2, 3]);
    const resultAt = server.messages.indexOf(byId(2));
    for (const notification of progressOf('p2')) expect(server.messages.indexOf(notification)).toBeLessThan(resultAt);
    expect(progressOf('p4')).toEqual([]);
    expect(server.stdout.trailing).toBe('');
  });

  // A dual-era client probes with server/discover and, when the probe times out (a slow start),
  // falls back to initialize: both lines wait in the pipe, and the probe must still be answered first.
  it('answers server/discover and initialize of one early write in the order they were written, then the session', async () => {
    server = new RawServer();
    server.send([request('discover', 'server/discover'), initialize('init'), INITIALIZED, legacyRequest('list', 'tools/list'), ''].join('\n'));
    await server.response('list');
    const answered = server.messages.filter((message) => 'id' in message).map((message) => message.id);
    expect(answered).toEqual(['discover', 'init', 'list']);
    expect(server.messages.filter((message) => 'error' in message)).toEqual([]);
    expect(server.messages[0].result).toEqual(expect.objectContaining({ supportedVersions: expect.arrayContaining([PROTOCOL_VERSION]) }));
    expect(server.messages[1].result).toEqual(expect.objectContaining({ protocolVersion: '2025-11-25' }));
  });

  it('serves a 2025 session opened by an early write: initialize, initialized, then calls', async () => {
    server = new RawServer();
    server.send(
      [
        initialize(1),
        INITIALIZED,
        legacyRequest(2, 'tools/list'),
        legacyRequest(3, 'tools/call', { name: 'echo', arguments: { message: 'legacy early' } }),
        '',
      ].join('\n'),
    );
    const [initialized, list, call] = [await server.response(1), await server.response(2), await server.response(3)];
    expect(initialized.result).toEqual(expect.objectContaining({ protocolVersion: '2025-11-25' }));
    expect(list.result.tools.map((tool: Msg) => tool.name)).toContain('echo');
    expect(call.result.content).toEqual([{ type: 'text', text: 'legacy early' }]);
    // initialize is answered before anything else of the session.
    expect(server.messages.findIndex((message) => message.id === 1)).toBe(0);
    expect(server.messages.filter((message) => 'error' in message)).toEqual([]);
  });
});

/** A fixture for what the sample has no tool for: a call that runs until it is cancelled, one the test releases, and a bounded nap. */
const waits = { started: 0, aborted: 0 };
/** Releases the `held` calls waiting for the test. */
const held: Array<() => void> = [];

@Injectable()
class SlowTools {
  @McpTool({ name: 'wait', description: 'Runs until its signal aborts' })
  async wait(@ToolContext() ctx: McpToolContext): Promise<string> {
    waits.started += 1;
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => {
        waits.aborted += 1;
        resolve();
      }, { once: true }),
    );
    return 'stopped';
  }

  @McpTool({ name: 'held', description: 'Runs until the test releases it' })
  async held(): Promise<string> {
    await new Promise<void>((resolve) => held.push(resolve));
    return 'released';
  }

  @McpTool({ name: 'nap', description: 'Sleeps for a while' })
  async nap(@McpArg('ms') ms: number): Promise<string> {
    await pause(ms);
    return `napped ${ms}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'stdio-fixture', version: '1.0.0' })], providers: [SlowTools] })
class SlowModule {}

/** A Nest logger that keeps the warnings and errors. */
function recordingLogger(lines: string[]): LoggerService {
  return { log: () => undefined, warn: (message: unknown) => lines.push(String(message)), error: (message: unknown) => lines.push(String(message)) };
}

/** bootstrapStdio on in-memory streams, in this process (no exit, no signal handlers). */
async function inProcess(module: object, options: { drainTimeoutMs?: number; logger?: LoggerService } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const out = new JsonLines('the in-process server', output);
  const server = await bootstrapStdio(module, { input, output, logger: options.logger ?? false, exitOnClose: false, handleSignals: false, drainTimeoutMs: options.drainTimeoutMs });
  const closed = () => within(server.closed, 'the in-process server to close', () => out.messages);
  return { input, out, messages: out.messages, server, closed };
}

describe('stdio: bootstrapStdio in-process on in-memory streams', () => {
  beforeEach(() => {
    waits.started = 0;
    waits.aborted = 0;
    held.length = 0;
  });

  it('serves the sample, then on input end closes the application without exiting the process', async () => {
    const { input, messages, server, closed } = await inProcess(AppModule);
    input.write(`${request(1, 'tools/call', { name: 'echo', arguments: { message: 'in memory' } })}\n`);
    input.end();
    await closed();
    expect(messages).toEqual([expect.objectContaining({ id: 1, result: expect.objectContaining({ content: [{ type: 'text', text: 'in memory' }] }) })]);
    expect(server.transport.inFlightCount).toBe(0);
  });

  it('notifications/cancelled aborts the handler signal and writes nothing for the call', async () => {
    const { input, out, messages, server } = await inProcess(SlowModule);
    input.write(`${request('w1', 'tools/call', { name: 'wait', arguments: {} })}\n`);
    await until(() => waits.started === 1, 'the call to start', () => waits);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'w1' } })}\n`);
    await until(() => waits.aborted === 1, 'its signal to fire', () => waits);
    // Anything written for w1 would come before the answer to this later call.
    input.write(`${request(2, 'tools/call', { name: 'nap', arguments: { ms: 1 } })}\n`);
    await out.response(2);
    expect(messages).toEqual([expect.objectContaining({ id: 2 })]);
    await server.close();
  });

  it('on input end waits for in-flight calls before closing', async () => {
    // The drain's bound is one only a hang reaches: the call ends when the test releases it.
    const { input, messages, server, closed } = await inProcess(SlowModule, { drainTimeoutMs: PATIENCE_MS });
    input.write(`${request(3, 'tools/call', { name: 'held', arguments: {} })}\n`);
    await until(() => held.length === 1, 'the held call to start');
    input.end();
    await within(server.transport.ended, 'the transport to see the input end');
    // Released only after the input ended: its result is written because the drain waited for it.
    held[0]();
    await closed();
    expect(messages).toEqual([expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: 'text', text: 'released' }] }) })]);
  });

  it('aborts calls that outlive the drain timeout, and still closes', async () => {
    const logged: string[] = [];
    const { input, messages, closed } = await inProcess(SlowModule, { drainTimeoutMs: 100, logger: recordingLogger(logged) });
    input.write(`${request(4, 'tools/call', { name: 'wait', arguments: {} })}\n`);
    await until(() => waits.started === 1, 'the call to start', () => waits);
    input.end();
    await closed();
    // The call never ends on its own: the server closed because the drain ran into its bound and aborted it.
    expect(logged).toContain('In-flight calls did not finish within 100 ms; aborting them');
    expect(waits.aborted).toBe(1);
    expect(messages).toEqual([]);
  });
});

@Module({ imports: [McpModule.forRoot({ name: 'stdio-legacy-only', version: '1.0.0', protocol: 'legacy' })], providers: [SlowTools] })
class LegacyOnlyModule {}

@Module({ imports: [McpModule.forRoot({ name: 'stdio-modern-only', version: '1.0.0', protocol: 'modern' })], providers: [SlowTools] })
class ModernOnlyModule {}

describe('stdio: `protocol` is enforced per pipe as on HTTP', () => {
  it("'legacy' refuses 2026-07-28 requests and anything before initialize with -32600, then serves the 2025 session", async () => {
    const { input, out, messages, server } = await inProcess(LegacyOnlyModule);
    input.write(`${request(1, 'server/discover')}\n${request(2, 'tools/list')}\n${legacyRequest(3, 'tools/list')}\n${initialize(4)}\n`);
    await out.count(4);
    input.write(`${legacyRequest(5, 'tools/list')}\n${request(6, 'tools/list')}\n`);
    await out.count(6);
    const refused = { code: -32600, message: expect.stringContaining('2025-11-25'), data: { supported: expect.arrayContaining(['2025-11-25']) } };
    // Refusals are written at once, served calls when they finish: compare in id order.
    expect([...messages].sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: '2.0', id: 1, error: refused },
      { jsonrpc: '2.0', id: 2, error: refused },
      { jsonrpc: '2.0', id: 3, error: refused },
      expect.objectContaining({ id: 4, result: expect.objectContaining({ protocolVersion: '2025-11-25' }) }),
      expect.objectContaining({ id: 5, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'nap' })]) } }),
      { jsonrpc: '2.0', id: 6, error: refused },
    ]);
    await server.close();
  });

  it("'modern' answers initialize with -32022 naming the versions it speaks, and serves 2026-07-28", async () => {
    const { input, out, messages, server } = await inProcess(ModernOnlyModule);
    input.write(`${initialize(1)}\n${request(2, 'tools/list')}\n`);
    await out.count(2);
    expect(messages[0]).toEqual({ jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32022, data: { supported: [PROTOCOL_VERSION], requested: '2025-11-25' } }) });
    expect(messages[1]).toEqual(expect.objectContaining({ id: 2, result: expect.objectContaining({ resultType: 'complete' }) }));
    await server.close();
  });

  it("'dual': a pipe pinned modern by its first request answers a later initialize with -32022", async () => {
    const { input, out, messages, server } = await inProcess(SlowModule);
    input.write(`${request(1, 'tools/list')}\n`);
    await out.count(1);
    input.write(`${initialize(2)}\n`);
    await out.count(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32022, data: expect.objectContaining({ requested: '2025-11-25' }) }) });
    await server.close();
  });

  it("a 2025 session's notifications reach the pipe until it closes, and not after", async () => {
    const { input, out, messages, server, closed } = await inProcess(SlowModule);
    const registry = server.app.get(McpRegistry, { strict: false });
    input.write(`${initialize(1)}\n`);
    await out.count(1);
    registry.addTool({ name: 'first', description: 'Added while the pipe is open' }, () => 'ok');
    await out.count(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    server.transport.stop();
    // The change feed is synchronous: a subscriber still there would have written this at once.
    registry.addTool({ name: 'second', description: 'Added after the pipe closed' }, () => 'ok');
    await closed();
    expect(messages).toHaveLength(2);
  });
});

describe('stdio, 2025 era: the v1 SDK (initialize pins the pipe to a 2025 session) against the sample', () => {
  /** A v1 client on a fresh sample process; every message the server writes is kept for the schema check. */
  async function connectV1(capabilities: Msg, answer?: (params: Msg) => Msg, entry = ENTRY) {
    const { assertLegacyServerMessage } = await import('./support/wire-schema.js');
    const client = new ClientV1({ name: 'nest-mcp-stdio-v1', version: '1.0.0' }, { capabilities });
    const asked: Msg[] = [];
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, async (request: Msg) => {
        asked.push(request.params);
        return answer(request.params);
      });
    }
    const transport = new StdioV1({ command: process.execPath, args: [entry], cwd: ROOT, stderr: 'pipe' });
    await client.connect(transport);
    const seen: Msg[] = [];
    const original = transport.onmessage;
    transport.onmessage = (message) => {
      seen.push(message);
      original?.(message);
    };
    const checkWire = () => {
      for (const message of seen) assertLegacyServerMessage(message);
    };
    return { client, asked, seen, checkWire };
  }

  it('initialize, list, ping, one question, two questions, decline and progress across rounds, all over the pipe', async () => {
    const { client, asked, seen, checkWire } = await connectV1({ elicitation: {} }, (params) => {
      const message = String(params.message);
      if (message.startsWith('Please enter')) return { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } };
      if (message.startsWith('Pick')) return { action: 'accept', content: { plan: 'pro' } };
      if (message.startsWith('Confirm')) return { action: 'decline' };
      if (message.startsWith('Step 1')) return { action: 'accept', content: { project: 'atlas' } };
      return { action: 'accept', content: { language: 'ts' } };
    });
    try {
      expect(client.getServerVersion()).toEqual(expect.objectContaining({ name: 'nest-mcp-sample' }));
      const { tools } = await client.listTools();
      expect(tools.map((tool: Msg) => tool.name)).toContain('onboard');
      expect(await client.ping()).toEqual({});

      expect((await client.callTool({ name: 'onboard', arguments: {} })).structuredContent).toEqual({ message: 'Welcome, Ada!' });
      expect((await client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-1' } })).structuredContent).toEqual({ upgraded: false, reason: 'not confirmed' });
      const progress: number[] = [];
      const wizard = await client.callTool({ name: 'wizard', arguments: {} }, undefined, { onprogress: (event: Msg) => progress.push(event.progress) });
      expect(wizard.structuredContent).toEqual({ project: 'atlas', language: 'ts' });
      // On the wire: each step once, increasing, across the three runs of the handler. (On a saturated
      // machine one may still reach the client after the result: the pause behind notifications is a bound.)
      expect(seen.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress)).toEqual([1, 2, 3]);
      expect(progress).toEqual([1, 2, 3].slice(0, progress.length));
      expect(asked.map((params) => params.message)).toEqual([
        'Please enter your details',
        'Pick a plan',
        'Confirm upgrade to pro?',
        'Step 1: project name?',
        'Step 2: language?',
      ]);
      expect(seen.filter((message) => message.method === 'elicitation/create')).toHaveLength(5);
      checkWire();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a client that declares the tasks extension at initialize (not defined for 2025, SEP-2663) gets quarterly-report as a plain call; skills and MCP Apps are advertised back', async () => {
    const declared = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/skills': {} } };
    const { client, asked, seen, checkWire } = await connectV1(declared, () => ({ action: 'accept', content: { confirmed: true } }));
    try {
      expect(client.getServerCapabilities()?.extensions).toEqual({
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
        'io.modelcontextprotocol/skills': { directoryRead: true },
      });
      const progress: number[] = [];
      const report = await client.callTool({ name: 'quarterly-report', arguments: { pages: 1 } }, undefined, { onprogress: (event: Msg) => progress.push(event.progress) });
      expect(report).toEqual({ content: [{ type: 'text', text: 'The 1-page quarterly report is ready.' }] });
      expect(asked.map((params) => params.message)).toEqual(['Build a 1-page report? It takes about 1 seconds.']);
      expect(seen.filter((message) => message.method === 'notifications/progress').map((message) => message.params.progress)).toEqual([1]);
      expect(progress).toEqual([1].slice(0, progress.length));
      checkWire();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a pipe whose client did not declare elicitation is refused with -32600 naming the capability; initialize twice is refused', async () => {
    const { client, checkWire } = await connectV1({});
    try {
      const error = await client.callTool({ name: 'onboard', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as Msg).code).toBe(-32600);
      expect((error as Msg).message).toContain('needs the client capability elicitation');
      const again = await client
        .request({ method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, InitializeResultSchema)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((again as Msg).code).toBe(-32600);
      checkWire();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('list_changed after run-time registration, resources/updated for subscribed URIs only, all on the pipe', async () => {
    const { client, seen, checkWire } = await connectV1({}, undefined, FEEDS_ENTRY);
    const received: Msg[] = [];
    const arrivals: Array<() => void> = [];
    const next = () => new Promise<void>((resolve) => arrivals.push(resolve));
    const onNotification = (notification: Msg) => {
      received.push(notification);
      arrivals.shift()?.();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, onNotification);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, onNotification);
    try {
      expect(client.getServerCapabilities()).toEqual(expect.objectContaining({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } }));
      let arrived = next();
      expect((await client.callTool({ name: 'add-tool', arguments: { name: 'late' } })).content).toEqual([{ type: 'text', text: 'added late' }]);
      await arrived;
      expect(received).toEqual([expect.objectContaining({ method: 'notifications/tools/list_changed' })]);
      expect((await client.listTools()).tools.map((tool: Msg) => tool.name)).toContain('late');
      expect((await client.callTool({ name: 'late', arguments: {} })).content).toEqual([{ type: 'text', text: 'I am late' }]);

      expect(await client.subscribeResource({ uri: 'notes://watched' })).toEqual({});
      arrived = next();
      await client.callTool({ name: 'touch', arguments: { uri: 'notes://watched' } });
      await arrived;
      // A URI nobody subscribed to: the pipe writes its notifications before the call's response, so none came.
      await client.callTool({ name: 'touch', arguments: { uri: 'notes://elsewhere' } });
      expect(await client.unsubscribeResource({ uri: 'notes://watched' })).toEqual({});
      await client.callTool({ name: 'touch', arguments: { uri: 'notes://watched' } });
      const updates = seen.filter((message) => message.method === 'notifications/resources/updated');
      expect(updates).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'notes://watched' } }]);
      expect(seen.filter((message) => message.method === 'notifications/tools/list_changed')).toHaveLength(1);
      checkWire();
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('stdio: every progress notification reaches the official clients before the result (issue 35)', () => {
  /**
   * Many calls, so that a notification sharing a read of the pipe with its result shows: before the
   * pause behind notifications most calls lost their last event (the clients handle a response at once
   * but notifications a microtask later), and each such notification is an error on the client.
   */
  const CALLS = 50;
  const ALL_STEPS = [1, 2, 3];

  interface Tally {
    /** Calls whose onprogress saw every step before the call resolved. */
    complete: number;
    /** What the other calls saw. */
    short: number[][];
    /** "Received a progress notification for an unknown token": a notification handled after its result. */
    unknownToken: string[];
    otherErrors: string[];
  }

  async function tally(connect: (onerror: (error: Error) => void) => Promise<{ call: (onprogress: (progress: number) => void) => Promise<Msg>; close: () => Promise<void> }>): Promise<Tally> {
    const seen: Tally = { complete: 0, short: [], unknownToken: [], otherErrors: [] };
    const client = await connect((error) => (/unknown token/.test(error.message) ? seen.unknownToken : seen.otherErrors).push(error.message));
    try {
      for (let i = 0; i < CALLS; i++) {
        const steps: number[] = [];
        const result = await client.call((progress) => steps.push(progress));
        expect(result.structuredContent).toEqual({ result: 'Done: processed 5 characters' });
        if (JSON.stringify(steps) === JSON.stringify(ALL_STEPS)) seen.complete++;
        else seen.short.push(steps);
      }
      // A notification handled after its result is reported a microtask later: one turn brings them all in.
      await nextTurn();
    } finally {
      await client.close();
    }
    return seen;
  }

  /**
   * Before the pause, most calls lost their last event (v1 5/50, client 2.x 7/50). The pause is a bound,
   * not a guarantee: a client kept off the CPU longer than it still meets one late (48 of 50 with three
   * test suites and their builds beside it on two cores). So the floor here is 90 %, far from the 10 to
   * 15 % without the pause; `npm run bench:stdio-progress` measures the figure (200 calls, 200
   * idle, at least 198 beside two busy loops). Each call that misses a step was told so by an
   * unknown-token error (nothing lost silently), and there is no other error.
   */
  function expectEveryStep(seen: Tally): void {
    expect(seen.otherErrors).toEqual([]);
    expect(seen.complete).toBeGreaterThanOrEqual(CALLS * 0.9);
    expect(seen.unknownToken.length).toBe(seen.short.reduce((missing, steps) => missing + ALL_STEPS.length - steps.length, 0));
  }

  it(`the v1 SDK (a 2025 session on the pipe): ${CALLS} calls of process, each sees progress 1, 2, 3 and no notification comes late`, async () => {
    const seen = await tally(async (onerror) => {
      const client = new ClientV1({ name: 'nest-mcp-stdio-progress', version: '1.0.0' }, { capabilities: {} });
      client.onerror = onerror;
      await client.connect(new StdioV1({ command: process.execPath, args: [ENTRY], cwd: ROOT, stderr: 'pipe' }));
      return {
        call: (onprogress) => client.callTool({ name: 'process', arguments: { data: 'steps' } }, undefined, { onprogress: (event) => onprogress(event.progress) }) as Promise<Msg>,
        close: () => client.close(),
      };
    });
    expectEveryStep(seen);
  }, 60_000);

  it(`the client 2.x (2026-07-28): ${CALLS} calls of process, each sees progress 1, 2, 3 and no notification comes late`, async () => {
    const seen = await tally(async (onerror) => {
      const client = new Client({ name: 'nest-mcp-stdio-progress', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } });
      client.onerror = onerror;
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [ENTRY], cwd: ROOT, stderr: 'pipe' }));
      return {
        call: (onprogress) => client.callTool({ name: 'process', arguments: { data: 'steps' } }, { onprogress: (event) => onprogress(event.progress) }) as Promise<Msg>,
        close: () => client.close(),
      };
    });
    expectEveryStep(seen);
  }, 60_000);

  /**
   * Over HTTP the clients read progress and result apart (separate SSE events), but a bridge relays
   * both to its stdio client in one write: through mcp-remote 159 of 200 calls saw every step before
   * the result paused behind its notifications on HTTP too.
   */
  it(`the v1 SDK over stdio through mcp-remote to the HTTP sample: ${CALLS} calls of process, each sees progress 1, 2, 3`, async () => {
    const started = await startApp([HttpAppModule]);
    // mcp-remote keeps its state under ~/.mcp-auth: a throwaway HOME keeps the user's out of it.
    const home = mkdtempSync(join(tmpdir(), 'nest-mcp-remote-'));
    try {
      const seen = await tally(async (onerror) => {
        const client = new ClientV1({ name: 'nest-mcp-remote-progress', version: '1.0.0' }, { capabilities: {} });
        client.onerror = onerror;
        const bridge = { command: process.execPath, args: [MCP_REMOTE, started.url, '--silent'], cwd: ROOT, env: { ...process.env, HOME: home } as Record<string, string>, stderr: 'pipe' as const };
        await client.connect(new StdioV1(bridge));
        return {
          call: (onprogress) => client.callTool({ name: 'process', arguments: { data: 'steps' } }, undefined, { onprogress: (event) => onprogress(event.progress) }) as Promise<Msg>,
          close: () => client.close(),
        };
      });
      expectEveryStep(seen);
    } finally {
      await started.app.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('stdio: started from another working directory, as desktop clients start servers (issue 32)', () => {
  const entry = join(ROOT, ENTRY);
  let elsewhere: string;

  beforeAll(() => {
    elsewhere = mkdtempSync(join(tmpdir(), 'nest-mcp-cwd-'));
  });
  afterAll(() => {
    rmSync(elsewhere, { recursive: true, force: true });
  });

  // The sample as tsc compiled it, and bundled (the bundle keeps each module's import.meta.url).
  for (const [build, file] of [
    ['tsc output', ENTRY],
    ['bundle', BUNDLE],
  ] as const) {
    it(`${build}: answers server/discover and a 2025 initialize; the app file and the skills folder are found beside the compiled sample`, async () => {
      const modern = new RawServer(elsewhere, file);
      try {
        modern.send(`${request('discover', 'server/discover')}\n${request('app', 'resources/read', { uri: 'ui://forecast/view.html' })}\n`);
        expect((await modern.response('discover')).result).toEqual(expect.objectContaining({ supportedVersions: expect.arrayContaining([PROTOCOL_VERSION]) }));
        expect((await modern.response('app')).result.contents[0].text).toContain('<!DOCTYPE html>');
        modern.send(`${request('skill', 'resources/read', { uri: 'skill://release-notes/SKILL.md' })}\n`);
        expect((await modern.response('skill')).result.contents[0].text).toContain('name: release-notes');
        // Decorator metadata survived the build: create-user gets its arguments as an instance of the DTO its parameter is typed with.
        modern.send(`${request('user', 'tools/call', { name: 'create-user', arguments: { name: 'Ada', email: 'ada@example.com', age: 37 } })}\n`);
        expect((await modern.response('user')).result.structuredContent).toEqual(expect.objectContaining({ name: 'Ada', isDto: true }));
      } finally {
        modern.kill();
      }
      const legacy = new RawServer(elsewhere, file);
      try {
        legacy.send(`${initialize('init')}\n`);
        expect((await legacy.response('init')).result).toEqual(expect.objectContaining({ protocolVersion: '2025-11-25' }));
      } finally {
        legacy.kill();
      }
    });

    // issue 32: the clients are given the absolute path and no `cwd`, from a process started in a temporary directory.
    it(`${build}: the official client 2.x and the v1 SDK, started with no cwd from a process in a temporary directory, list the sample tools`, async () => {
      const child = spawn(process.execPath, [NO_CWD_CLIENTS, join(ROOT, file)], { cwd: elsewhere, stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout = new JsonLines('the clients fixture', child.stdout);
      const stderr = new StreamText("the clients fixture's stderr", child.stderr);
      const [report] = (await within(
        Promise.all([stdout.waitFor((message) => 'client2' in message), new Promise((resolve) => child.on('close', resolve))]),
        'the clients fixture to list the tools and exit',
        () => stderr.text,
      )) as [Msg, unknown];
      expect(report.cwd).toBe(realpathSync(elsewhere));
      expect(report.client2).toContain('forecast');
      expect(report.v1).toEqual(report.client2);
      expect(child.exitCode).toBe(0);
    }, 60_000);
  }
});
