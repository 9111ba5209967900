import 'reflect-metadata';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, InitializeResultSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { Injectable, Module } from '@nestjs/common';
import { bootstrapStdio, McpArg, McpModule, McpRegistry, McpTool, ToolContext, type McpToolContext } from '../lib/index.js';
import { AppModule } from '../sample/app.module.js';

/**
 * The sample served over stdio (`dist/sample/main-stdio.js`), spawned as a child process the way
 * desktop clients start local servers: first driven by the official client's stdio transport, then
 * through raw pipes for what a well-behaved client never sends.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'dist/sample/main-stdio.js';
/** Run-time registration and resource updates on a trigger (plain JavaScript on dist/lib). */
const FEEDS_ENTRY = 'test/src/stdio-feeds.fixture.mjs';
const PROTOCOL_VERSION = '2026-07-28';

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
}, 120_000);

describe('stdio: the official @modelcontextprotocol/client against the sample', () => {
  let client: Client;
  let stderr: string;

  beforeEach(async () => {
    stderr = '';
    const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY], cwd: ROOT, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
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
    expect(tools.map((tool) => tool.name)).toEqual(['hello', 'echo', 'notify', 'shout', 'create-user', 'process', 'onboard', 'upgrade-plan', 'wizard', 'quarterly-report', 'forecast']);
  });

  it('calls hello (structuredContent)', async () => {
    const result = await client.callTool({ name: 'hello', arguments: { name: 'Stdio' } });
    expect(result.structuredContent).toEqual({ message: 'Hello, Stdio!' });
    expect(result.content).toEqual([{ type: 'text', text: '{"message":"Hello, Stdio!"}' }]);
  });

  it('receives progress notifications via onprogress (process)', async () => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    // The client runs notification handlers a microtask late but resolves responses at once, so a
    // progress notification read in the same stdout chunk as its response reaches a retired handler
    // and is reported through onerror (modelcontextprotocol/typescript-sdk#2580). The server sent it
    // in order; count it as delivered.
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
    // The late ones are reported a microtask after the response resolves; a macrotask later they are all in.
    await pause(20);
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
    const deadline = Date.now() + 5_000;
    while (!stderr.includes('notification: ping from stdio') && Date.now() < deadline) await pause(10);
    expect(stderr).toContain('notification: ping from stdio');
  });
});

/** The sample with raw pipes: every stdout line is collected (and must parse), stderr kept as text. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  readonly messages: Msg[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer = '';
  private waiters: Array<() => void> = [];

  constructor() {
    this.child = spawn(process.execPath, [ENTRY], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        this.lines.push(line);
        this.messages.push(JSON.parse(line) as Msg);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  send(text: string): void {
    this.child.stdin.write(text);
  }

  /** Resolves with the first message that matches, waiting for more output up to `timeoutMs`. */
  async waitFor(predicate: (message: Msg) => boolean, timeoutMs = 5_000): Promise<Msg> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** stderr is a separate pipe: its data can arrive after the stdout line that answers the call. */
  async waitForStderr(text: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`stderr never contained ${JSON.stringify(text)}; got ${this.stderr}`);
      await pause(10);
    }
  }

  response(id: number | string): Promise<Msg> {
    return this.waitFor((message) => message.id === id && ('result' in message || 'error' in message));
  }

  /** Stray bytes after the last newline would be a partial, unparseable message. */
  get trailing(): string {
    return this.buffer;
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
    server.send(line.slice(0, 20));
    await pause(30);
    server.send(`${line.slice(20)}\r\n`);
    const hello = await server.response(3);
    expect(hello.result.structuredContent).toEqual({ message: 'Hello, Split!' });
  });

  it('writes nothing but JSON-RPC lines on stdout, and logs on stderr', async () => {
    server.send(`${request(4, 'tools/call', { name: 'notify', arguments: { message: 'to stderr' } })}\n`);
    server.send('garbage\n');
    await server.response(4);
    await server.waitFor((message) => message.error?.code === -32700);
    expect(server.lines.length).toBeGreaterThan(0);
    for (const line of server.lines) {
      expect(JSON.parse(line)).toEqual(expect.objectContaining({ jsonrpc: '2.0' }));
      expect(line).toBe(JSON.stringify(JSON.parse(line)));
    }
    expect(server.trailing).toBe('');
    expect(server.stderr).toContain('MCP server listening on stdio');
    expect(server.stderr).toContain('Mapped 11 tool(s)');
    await server.waitForStderr('notification: to stderr');
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
    await pause(200);
    server.send(`${request(6, 'tools/list')}\n`);
    await server.response(6);

    const about = (id: unknown) => (message: Msg) => message.id === id || message.params?.requestId === id || message.params?.progressToken === 'p5';
    expect(server.messages.filter(about(5))).toEqual([]);
    expect(server.messages.filter((message) => message.id === 'listen-1' || message.params?.requestId === 'listen-1')).toEqual([]);
    expect(server.messages.filter((message) => 'error' in message)).toEqual([]);

    // A cancelled id is free again.
    server.send(`${request(5, 'tools/call', { name: 'echo', arguments: { message: 'again' } })}\n`);
    expect((await server.response(5)).result.content).toEqual([{ type: 'text', text: 'again' }]);
  });

  it('on EOF finishes in-flight calls, ends listen streams (result, then notifications/cancelled) and exits 0', async () => {
    server.send(`${request('listen-2', 'subscriptions/listen', { notifications: { toolsListChanged: true } })}\n`);
    await server.waitFor((message) => message.method === 'notifications/subscriptions/acknowledged');
    server.send(`${request(9, 'tools/call', { name: 'process', arguments: { data: 'drained' } }, { progressToken: 'p9' })}\n`);
    const started = Date.now();
    server.child.stdin.end();

    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);

    const processed = server.messages.find((message) => message.id === 9);
    expect(processed?.result.structuredContent).toEqual({ result: 'Done: processed 7 characters' });
    expect(server.messages.filter((message) => message.params?.progressToken === 'p9')).toHaveLength(3);

    const listenResult = server.messages.findIndex((message) => message.id === 'listen-2' && 'result' in message);
    const listenCancel = server.messages.findIndex((message) => message.method === 'notifications/cancelled' && message.params?.requestId === 'listen-2');
    expect(server.messages[listenResult].result).toEqual(
      expect.objectContaining({ resultType: 'complete', _meta: expect.objectContaining({ 'io.modelcontextprotocol/subscriptionId': 'listen-2' }) }),
    );
    expect(listenCancel).toBe(listenResult + 1);
    expect(server.trailing).toBe('');
  });

  it('exits 0 on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
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
    // Anything still owed for the cancelled call would have come before the slower call 2 finished.
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
    expect(server.trailing).toBe('');
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

/** A fixture for what the sample has no tool for: a call that runs until it is cancelled, and a bounded nap. */
const waits = { started: 0, aborted: 0 };

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

  @McpTool({ name: 'nap', description: 'Sleeps for a while' })
  async nap(@McpArg('ms') ms: number): Promise<string> {
    await pause(ms);
    return `napped ${ms}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'stdio-fixture', version: '1.0.0' })], providers: [SlowTools] })
class SlowModule {}

/** bootstrapStdio on in-memory streams, in this process (no exit, no signal handlers). */
async function inProcess(module: object, drainTimeoutMs?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const messages: Msg[] = [];
  let buffer = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) messages.push(JSON.parse(line) as Msg);
  });
  const server = await bootstrapStdio(module, { input, output, logger: false, exitOnClose: false, handleSignals: false, drainTimeoutMs });
  const until = async (predicate: () => boolean, timeoutMs = 3_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`Timed out; got ${JSON.stringify(messages)}`);
      await pause(10);
    }
  };
  return { input, messages, server, until };
}

describe('stdio: bootstrapStdio in-process on in-memory streams', () => {
  beforeEach(() => {
    waits.started = 0;
    waits.aborted = 0;
  });

  it('serves the sample, then on input end closes the application without exiting the process', async () => {
    const { input, messages, server } = await inProcess(AppModule);
    input.write(`${request(1, 'tools/call', { name: 'echo', arguments: { message: 'in memory' } })}\n`);
    input.end();
    await server.closed;
    expect(messages).toEqual([expect.objectContaining({ id: 1, result: expect.objectContaining({ content: [{ type: 'text', text: 'in memory' }] }) })]);
    expect(server.transport.inFlightCount).toBe(0);
  });

  it('notifications/cancelled aborts the handler signal and writes nothing for the call', async () => {
    const { input, messages, server, until } = await inProcess(SlowModule);
    input.write(`${request('w1', 'tools/call', { name: 'wait', arguments: {} })}\n`);
    await until(() => waits.started === 1);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'w1' } })}\n`);
    await until(() => waits.aborted === 1);
    input.write(`${request(2, 'tools/call', { name: 'nap', arguments: { ms: 1 } })}\n`);
    await until(() => messages.length > 0);
    expect(messages).toEqual([expect.objectContaining({ id: 2 })]);
    await server.close();
  });

  it('on input end waits for in-flight calls before closing', async () => {
    const { input, messages, server } = await inProcess(SlowModule, 5_000);
    input.write(`${request(3, 'tools/call', { name: 'nap', arguments: { ms: 150 } })}\n`);
    input.end();
    await server.closed;
    expect(messages).toEqual([expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: 'text', text: 'napped 150' }] }) })]);
  });

  it('aborts calls that outlive the drain timeout, and still closes', async () => {
    const { input, messages, server, until } = await inProcess(SlowModule, 100);
    input.write(`${request(4, 'tools/call', { name: 'wait', arguments: {} })}\n`);
    await until(() => waits.started === 1);
    const started = Date.now();
    input.end();
    await server.closed;
    expect(Date.now() - started).toBeLessThan(800);
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
    const { input, messages, server, until } = await inProcess(LegacyOnlyModule);
    input.write(`${request(1, 'server/discover')}\n${request(2, 'tools/list')}\n${legacyRequest(3, 'tools/list')}\n${initialize(4)}\n`);
    await until(() => messages.length === 4);
    input.write(`${legacyRequest(5, 'tools/list')}\n${request(6, 'tools/list')}\n`);
    await until(() => messages.length === 6);
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
    const { input, messages, server, until } = await inProcess(ModernOnlyModule);
    input.write(`${initialize(1)}\n${request(2, 'tools/list')}\n`);
    await until(() => messages.length === 2);
    expect(messages[0]).toEqual({ jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32022, data: { supported: [PROTOCOL_VERSION], requested: '2025-11-25' } }) });
    expect(messages[1]).toEqual(expect.objectContaining({ id: 2, result: expect.objectContaining({ resultType: 'complete' }) }));
    await server.close();
  });

  it("'dual': a pipe pinned modern by its first request answers a later initialize with -32022", async () => {
    const { input, messages, server, until } = await inProcess(SlowModule);
    input.write(`${request(1, 'tools/list')}\n`);
    await until(() => messages.length === 1);
    input.write(`${initialize(2)}\n`);
    await until(() => messages.length === 2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32022, data: expect.objectContaining({ requested: '2025-11-25' }) }) });
    await server.close();
  });

  it("a 2025 session's notifications reach the pipe until it closes, and not after", async () => {
    const { input, messages, server, until } = await inProcess(SlowModule);
    const registry = server.app.get(McpRegistry, { strict: false });
    input.write(`${initialize(1)}\n`);
    await until(() => messages.length === 1);
    registry.addTool({ name: 'first', description: 'Added while the pipe is open' }, () => 'ok');
    await until(() => messages.length === 2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    server.transport.stop();
    // The change feed is synchronous: a subscriber still there would have written this at once.
    registry.addTool({ name: 'second', description: 'Added after the pipe closed' }, () => 'ok');
    await server.closed;
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
      // On the wire: each step once, increasing, across the three runs of the handler. (The v1 client handles
      // notifications a microtask late, so one that shares a read with the response may miss its onprogress.)
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
