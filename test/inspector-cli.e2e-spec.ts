import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json } from './support/mcp-http.js';
import { StreamText, within } from './support/waiting.js';

/**
 * The official MCP Inspector's CLI (2.12.0), a client of both eras, against the built sample and the
 * built conformance fixture, each a child process: over HTTP (Express, or Fastify with
 * MCP_HTTP_ADAPTER=fastify, which the children inherit) and over stdio. Its default mode is legacy: a
 * 2025 session whose `initialize` declares the tasks and skills extensions. `--protocol-era modern`
 * speaks 2026-07-28 and drives a task itself (tasks/get until it ends).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INSPECTOR = join(ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const SAMPLE = join(ROOT, 'dist/sample/main.js');
const SAMPLE_STDIO = join(ROOT, 'dist/sample/main-stdio.js');
const FIXTURE = join(ROOT, 'dist/sample/conformance/main.js');
const TASKS = 'io.modelcontextprotocol/tasks';
const SKILLS = 'io.modelcontextprotocol/skills';
const UI = 'io.modelcontextprotocol/ui';

/** The error the sample gave before a 2025 session honoured the era: a 2026-only refusal. */
const MODERN_ENVELOPE_ERROR = 'io.modelcontextprotocol/protocolVersion';

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where the Inspector keeps its catalog and settings: a folder of this run, never the user's. */
let home: string;

/** One non-interactive run of the CLI against `target` (a URL, or a command for stdio); settles when it exits. */
async function inspector(target: string[], args: string[]): Promise<InspectorRun> {
  const child = spawn(process.execPath, [INSPECTOR, '--cli', '--stored-auth-only', '--quiet', '--format', 'json', ...target, ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), MCP_CLIENT_CONFIG_PATH: join(home, 'client.json'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await within(new Promise<number | null>((resolve) => child.on('close', resolve)), `the Inspector CLI (${args.join(' ')}) to exit`, () => ({ stdout, stderr }));
  return { code, stdout, stderr };
}

/** The JSON-RPC error the CLI printed (its last line on stderr). */
function errorOf(run: InspectorRun): { code: unknown; message: string } {
  const line = run.stderr.trim().split('\n').at(-1) ?? '';
  return (JSON.parse(line) as Json).error;
}

/** A child server that prints its URL once it listens; stopped with SIGTERM. */
async function startServer(entry: string, urlPattern: RegExp): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = new StreamText(entry, child.stdout!, child.stderr!);
  const [url] = await output.contains(urlPattern);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await within(exited, `${entry} to exit`);
    },
  };
}

/** Forwards HTTP to `target`, keeping the JSON bodies clients POST: what the Inspector sends, on the record. */
async function recordingProxy(target: string): Promise<{ url: string; sent: Json[]; close: () => Promise<void> }> {
  const sent: Json[] = [];
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) sent.push(JSON.parse(body.toString()));
      const forwarded = http.request(upstream, { method: request.method, headers: { ...request.headers, host: upstream.host } }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      forwarded.on('error', () => response.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    sent,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'nest-mcp-inspector-'));
  // The children run the compiled sample and fixture, with their skills folders beside them.
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: ROOT, stdio: 'pipe' });
}, 180_000);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe(`MCP Inspector CLI over HTTP (${process.env.MCP_HTTP_ADAPTER ?? 'express'})`, () => {
  let sample: Awaited<ReturnType<typeof startServer>>;
  let fixture: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    [sample, fixture] = await Promise.all([
      startServer(SAMPLE, /http:\/\/127\.0\.0\.1:\d+\/mcp/),
      startServer(FIXTURE, /http:\/\/127\.0\.0\.1:\d+\/mcp/),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([sample?.stop(), fixture?.stop()]);
  });

  it('legacy mode declares the tasks and skills extensions at initialize; the sample advertises skills and MCP Apps back, never tasks', async () => {
    const proxy = await recordingProxy(sample.url);
    try {
      const run = await inspector([proxy.url], ['--method', 'skills/list']);
      expect(run.code).toBe(0);
      const initialize = proxy.sent.find((message) => message.method === 'initialize');
      expect(initialize.params.protocolVersion).toBe('2025-11-25');
      expect(initialize.params.capabilities.extensions).toEqual({ [TASKS]: {}, [SKILLS]: {} });
      // The Inspector calls skills/list in legacy mode only when initialize declared the extension.
      expect(JSON.parse(run.stdout).result.skills.map((skill: Json) => skill.uri)).toEqual(['skill://release-notes/SKILL.md']);
    } finally {
      await proxy.close();
    }
    const initialized = await fetch(sample.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
    });
    const capabilities = ((await initialized.json()) as Json).result.capabilities;
    expect(capabilities.extensions).toEqual({ [UI]: { mimeTypes: ['text/html;profile=mcp-app'] }, [SKILLS]: { directoryRead: true } });
  });

  it('skills/list --verify passes the Inspector’s SEP-2640 and digest checks in both eras', async () => {
    for (const era of ['legacy', 'modern']) {
      const run = await inspector([sample.url], ['--protocol-era', era, '--method', 'skills/list', '--verify']);
      expect({ era, code: run.code }).toEqual({ era, code: 0 });
      const report = JSON.parse(run.stdout.trim().split('\n')[0]!);
      expect(report).toMatchObject({ uri: 'skill://release-notes/SKILL.md', ok: true, outcome: 'verified', conformance: [] });
      expect(report.files.map((file: Json) => file.status)).toEqual(['verified', 'verified']);
    }
  });

  it('legacy mode: the task tool quarterly-report is a plain 2025 call, refused only for the question it must ask (never a 2026-only error); modern mode runs it as a task that fails the same way', async () => {
    const legacy = await inspector([sample.url], ['--method', 'tools/call', '--tool-name', 'quarterly-report', '--tool-arg', 'pages=1']);
    expect(legacy.code).not.toBe(0);
    expect(legacy.stderr).not.toContain(MODERN_ENVELOPE_ERROR);
    // The CLI answers no questions, so it declares no elicitation: the report's confirmation cannot be asked.
    expect(errorOf(legacy).message).toBe('Invalid Request: this request needs the client capability elicitation, which the session did not declare at initialize');
    const modern = await inspector([sample.url], ['--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', 'quarterly-report', '--tool-arg', 'pages=1']);
    expect(errorOf(modern).message).toBe('This request requires the client capabilities: elicitation');
  });

  it('a task tool that asks nothing: legacy runs it synchronously, modern gets and polls a task to the same result; a task-only tool is -32600 in legacy, a task in modern', async () => {
    const args = ['--method', 'tools/call', '--tool-name', 'slow_compute', '--tool-arg', 'seconds=0', '--tool-arg', 'label=inspector'];
    const legacy = await inspector([fixture.url], args);
    expect(legacy.code).toBe(0);
    expect(JSON.parse(legacy.stdout).result).toEqual({ content: [{ type: 'text', text: 'Computed inspector in 0s' }] });
    const modern = await inspector([fixture.url], ['--protocol-era', 'modern', ...args]);
    expect(modern.code).toBe(0);
    expect(JSON.parse(modern.stdout).result).toMatchObject({ content: [{ type: 'text', text: 'Computed inspector in 0s' }], resultType: 'complete' });

    const required = ['--method', 'tools/call', '--tool-name', 'failing_job'];
    const refused = await inspector([fixture.url], required);
    expect(errorOf(refused).message).toMatch(/^Task augmentation required for tools\/call requests: this tool runs only as a task/);
    // Modern: the task runs and completes with the fixture's tool error (the CLI exits 5 on isError).
    const task = await inspector([fixture.url], ['--protocol-era', 'modern', ...required]);
    expect(task.code).toBe(5);
    expect(JSON.parse(task.stdout).result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed, as this fixture always does' }] });
  });
});

describe('MCP Inspector CLI over stdio', () => {
  const target = ['node', SAMPLE_STDIO];

  it('legacy mode: quarterly-report is a plain 2025 call (the question it needs is the only refusal); skills list and verify in both eras', async () => {
    const call = await inspector(target, ['--method', 'tools/call', '--tool-name', 'quarterly-report', '--tool-arg', 'pages=1']);
    expect(call.stderr).not.toContain(MODERN_ENVELOPE_ERROR);
    expect(errorOf(call).message).toBe('Invalid Request: this request needs the client capability elicitation, which the session did not declare at initialize');
    for (const era of ['legacy', 'modern']) {
      const run = await inspector(target, ['--protocol-era', era, '--method', 'skills/list', '--verify']);
      expect({ era, code: run.code }).toEqual({ era, code: 0 });
      expect(JSON.parse(run.stdout.trim().split('\n')[0]!)).toMatchObject({ uri: 'skill://release-notes/SKILL.md', ok: true, outcome: 'verified' });
    }
  });
});
