import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { parseSse, readEvents } from './support/interactive-http.js';
import { release, run, runs, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';
import { StreamText, until, within } from './support/waiting.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

function callBody(name: string, args: Record<string, unknown>, options: { id?: string | number; progressToken?: string } = {}): Json {
  return rpc('tools/call', { name, arguments: args }, { id: options.id, meta: { ...CAPS, ...(options.progressToken ? { progressToken: options.progressToken } : {}) } });
}

function start(url: string, body: Json, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal });
}

describe('disconnect, timeout and cancellation (e2e)', () => {
  let started: ReliabilityApp;
  let timed: ReliabilityApp;

  beforeAll(async () => {
    [started, timed] = await Promise.all([startReliabilityApp(), startReliabilityApp({ limits: { callTimeout: 'PT0.2S' } })]);
  });

  afterAll(async () => {
    await Promise.all([started?.app.close(), timed?.app.close()]);
  });

  it('(a) a client that disconnects mid-SSE fires ctx.signal and the tool stops emitting', async () => {
    const tag = 'disconnect';
    const controller = new AbortController();
    const response = await start(started.url, callBody('drip', { tag, steps: 100, gapMs: 30 }, { progressToken: 'p-disconnect' }), controller.signal);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    let seen = 0;
    const reading = readEvents(response, () => {
      if (++seen === 3) controller.abort();
    });
    await reading;
    expect(seen).toBeGreaterThanOrEqual(3);
    await until(() => run(tag).finished, 'drip to return', () => run(tag));
    expect(run(tag).aborted).toBe(true);
    // It stopped at the abort: not one emit after the signal fired (and, returned, it can emit no more).
    expect(run(tag).emitted).toBe(run(tag).emittedAtAbort);
    expect(run(tag).emitted).toBeLessThan(100);
    expect(run(tag).abortReason).toMatch(/closed/i);
    // The server still serves.
    const echo = (await (await start(started.url, callBody('echo', { message: 'after disconnect' }))).json()) as Json;
    expect(echo.result.content[0].text).toBe('after disconnect');
  });

  it("(b) limits.callTimeout PT0.2S on a slow tool → -31008 and the tool's signal fired", async () => {
    const tag = 'timeout';
    // An hour-long call: only the call timeout can have answered it.
    const response = await start(timed.url, callBody('slow', { tag, ms: 3_600_000 }, { id: 'slow-timeout' }));
    const body = (await response.json()) as Json;
    expect(body.id).toBe('slow-timeout');
    expect(body.error.code).toBe(-31008);
    expect(body.error.message).toMatch(/timed out after 200 ms/);
    expect(body).not.toHaveProperty('result');
    await until(() => run(tag).finished, 'the timed-out tool to stop', () => run(tag));
    expect(run(tag).aborted).toBe(true);
    // A quick call on the same server is not affected.
    const quick = (await (await start(timed.url, callBody('echo', { message: 'quick' }))).json()) as Json;
    expect(quick.result.content[0].text).toBe('quick');
  });

  it('(b) a timed-out progress stream ends with the -31008 error as its last event', async () => {
    const tag = 'timeout-sse';
    const response = await start(timed.url, callBody('drip', { tag, steps: 100, gapMs: 50 }, { id: 'drip-timeout', progressToken: 'p-timeout' }));
    const messages = parseSse(await response.text());
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.at(-1)).toMatchObject({ id: 'drip-timeout', error: { code: -31008 } });
    expect(messages.slice(0, -1).every((message) => message.method === 'notifications/progress')).toBe(true);
    await until(() => run(tag).finished, 'the timed-out tool to stop', () => run(tag));
    expect(run(tag).aborted).toBe(true);
  });

  async function cancel(url: string, requestId: string | number): Promise<Response> {
    const body = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the user pressed stop' } };
    const headers = { ...standardHeaders(rpc('notifications/cancelled')), 'mcp-method': 'notifications/cancelled' };
    return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  }

  // On HTTP, closing the response stream is the cancel signal (2026-07-28); notifications/cancelled
  // is acknowledged and acts on nothing, since any client could send one for any id.
  it('(c) notifications/cancelled for an in-flight JSON call → 202, and the call still gets its result', async () => {
    const tag = 'cancel-json';
    const id = 'cancel-json-1';
    // Held until the cancel was answered, so the cancel lands on a call in flight.
    const pending = start(started.url, callBody('held', { tag, steps: 1 }, { id }));
    await until(() => run(tag).entered, 'the held call to start', () => run(tag));
    expect((await cancel(started.url, id)).status).toBe(202);
    release(tag);
    const reply = (await (await pending).json()) as Json;
    expect(reply).toMatchObject({ id, result: { content: [{ type: 'text', text: `held ${tag} done` }] } });
    expect(run(tag).aborted).toBe(false);
  });

  it('(c) notifications/cancelled for an in-flight SSE call → 202, and the stream runs to its final response', async () => {
    const tag = 'cancel-sse';
    const id = 777_001;
    const response = await start(started.url, callBody('held', { tag, steps: 2 }, { id, progressToken: 'p-cancel' }));
    let cancelled: Promise<Response> | undefined;
    const text = await readEvents(response, (message) => {
      if (message.method !== 'notifications/progress') return;
      // Held after its first step until the cancel was answered: the cancel lands mid-stream.
      if (message.params.progress === 1) cancelled = cancel(started.url, id).finally(() => release(tag));
      else release(tag);
    });
    expect((await cancelled!).status).toBe(202);
    const messages = parseSse(text);
    expect(messages.map((message) => message.params?.progress)).toEqual([1, 2, undefined]);
    expect(messages.at(-1)).toMatchObject({ id, result: { content: [{ type: 'text', text: `held ${tag} done` }] } });
    expect(run(tag).aborted).toBe(false);
  });

  it('(c) a cancellation for an unknown or finished id is ignored (202) and harms nothing', async () => {
    const done = (await (await start(started.url, callBody('echo', { message: 'finished' }, { id: 'finished-1' }))).json()) as Json;
    expect(done.result.content[0].text).toBe('finished');
    expect((await cancel(started.url, 'finished-1')).status).toBe(202);
    expect((await cancel(started.url, 'never-sent')).status).toBe(202);
    const again = (await (await start(started.url, callBody('echo', { message: 'still' }))).json()) as Json;
    expect(again.result.content[0].text).toBe('still');
  });

  it('(c) closing one response stream stops only that call: a concurrent one completes', async () => {
    const closing = new AbortController();
    // Both held: 'keep' is released only once 'drop' was aborted, so the two were in flight together.
    const keep = start(started.url, callBody('held', { tag: 'keep', steps: 1 }, { id: 'keep-me' }));
    const drop = start(started.url, callBody('held', { tag: 'drop', steps: 1 }, { id: 'drop-me' }), closing.signal).catch(() => undefined);
    await until(() => run('keep').entered && run('drop').entered, 'both calls to start', () => ({ keep: run('keep'), drop: run('drop') }));
    closing.abort();
    await drop;
    await until(() => run('drop').aborted, "the closed stream's call to be aborted", () => run('drop'));
    release('keep');
    const kept = (await (await keep).json()) as Json;
    expect(kept).toMatchObject({ id: 'keep-me', result: { content: [{ type: 'text', text: 'held keep done' }] } });
    expect(run('keep').aborted).toBe(false);
  });
});

describe('graceful shutdown with app.close() (e2e)', () => {
  it('the in-flight call completes, a request during the drain gets 503 (or a refused connection)', async () => {
    runs.delete('drain');
    // The shutdown bound is one only a hang reaches: the call is released once the late request was answered.
    const { app, url } = await startReliabilityApp({ limits: { shutdownTimeout: 'PT60S' } });
    const inFlight = start(url, callBody('held', { tag: 'drain', steps: 1 }, { id: 'in-flight' }));
    await until(() => run('drain').entered, 'the held call to start', () => run('drain'));
    const closing = app.close();
    const late = await start(url, callBody('echo', { message: 'too late' }, { id: 'late' })).then(
      async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Json }),
      (error: unknown) => ({ refused: String((error as { cause?: unknown }).cause ?? error) }),
    );
    if ('status' in late) {
      expect(late.status).toBe(503);
      expect(late.retryAfter).toBe('1');
      expect(late.body).toMatchObject({ jsonrpc: '2.0', id: 'late', error: { code: -31503 } });
    } else {
      expect(late.refused).toMatch(/ECONNREFUSED|ECONNRESET|other side closed/);
    }
    release('drain');
    const response = await inFlight;
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ id: 'in-flight', result: { content: [{ type: 'text', text: 'held drain done' }] } });
    expect(run('drain').aborted).toBe(false);
    await closing;
  });
});

/** Newest mtime of the .ts files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

describe('SIGTERM on the built sample (node dist/sample/main.js)', () => {
  const main = join(ROOT, 'dist/sample/main.js');
  let child: ChildProcess | undefined;

  beforeAll(() => {
    const built = existsSync(main) ? statSync(main).mtimeMs : 0;
    const stale = !built || Math.max(newest(join(ROOT, 'lib')), newest(join(ROOT, 'sample'))) > built;
    if (stale) {
      try {
        execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 60_000 });
      } catch (error) {
        throw new Error(`npx tsc -p tsconfig.build.json failed: ${String((error as { stdout?: Buffer }).stdout ?? error)}`);
      }
    }
  }, 90_000);

  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('a call in flight at SIGTERM completes with its result and the process exits cleanly', async () => {
    child = spawn(process.execPath, [main], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', MOCAPI_MRTR_SECRET: Buffer.alloc(32, 7).toString('base64'), NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // 'close': exited, and all its output read.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child!.on('close', (code, signal) => resolve({ code, signal })));
    const output = new StreamText('the sample', child.stdout!, child.stderr!);
    const url = (await output.contains(/MCP endpoint: (http:\/\/\S+)/))[1].replace(/\u001b\[[0-9;]*m/g, '');

    // `process` streams progress then sleeps between steps: SIGTERM goes out once the first event is in.
    const response = await start(url, callBody('process', { data: 'shutdown test' }, { id: 'at-sigterm', progressToken: 'p-sigterm' }));
    let signalled = false;
    const text = await readEvents(response, () => {
      if (!signalled) {
        signalled = true;
        child!.kill('SIGTERM');
      }
    });
    expect(signalled).toBe(true);
    const messages = parseSse(text);
    expect(messages.at(-1)).toMatchObject({ id: 'at-sigterm', result: { structuredContent: { result: 'Done: processed 13 characters' } } });
    const exit = await within(exited, 'the sample to exit after SIGTERM', () => output.text);
    // Nest's enableShutdownHooks() re-raises the signal once the shutdown hooks ran (code null, signal SIGTERM);
    // with { useProcessExit: true } it exits 0. Either is a clean, drained exit (never a timeout or a crash code).
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(output.text).not.toMatch(/ERROR|Error during shutdown/);
  });
});
