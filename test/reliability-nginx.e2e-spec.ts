import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { parseSse, randomSecret } from './support/interactive-http.js';
import { deadline, sleep, startReliabilityApp, waitFor, type ReliabilityApp } from './src/reliability-fixture.js';

/** nginx on PATH, or the Debian package's /usr/sbin/nginx. */
function findNginx(): string | undefined {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nginx')), '/usr/sbin/nginx', '/usr/local/sbin/nginx'];
  return candidates.find((path) => path && existsSync(path));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The settings the README documents for running nest-mcp behind nginx. */
function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return `# written by test/reliability-nginx.e2e-spec.ts
${asRoot ? 'user root;' : '# (not root: the user directive is not needed)'}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 2m;

  # Round-robin (the default) over stateless instances that share mocapi.mrtr.secret.
  upstream mcp {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
    keepalive 16;
  }

  server {
    listen 127.0.0.1:${port};

    location /mcp {
      proxy_pass http://mcp;
      proxy_http_version 1.1;          # keep-alive to the upstreams, chunked SSE
      proxy_set_header Connection "";  # no "Connection: close" to the upstreams
      proxy_set_header Host $http_host;
      proxy_buffering off;             # stream SSE events as they are written
      proxy_cache off;
      proxy_read_timeout 1h;           # long-running calls and subscriptions/listen
    }

    # Same upstreams with nginx's default buffering: the X-Accel-Buffering: no header of SSE responses alone must flush.
    location = /buffered/mcp {
      proxy_pass http://mcp/mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
    }
  }
}
`;
}

const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const nginx = findNginx();

describe('scale-out: two instances behind nginx (e2e)', () => {
  if (!nginx) {
    if (process.env.CI) {
      it('needs nginx', () => {
        throw new Error('nginx is not installed: install nginx: apt-get install -y nginx');
      });
    } else {
      console.log('nginx not found on PATH or in /usr/sbin: skipping the nginx scale-out test (install nginx: apt-get install -y nginx)');
      it.skip('needs nginx (apt-get install -y nginx)', () => undefined);
    }
    return;
  }

  const secret = randomSecret();
  let dir: string;
  let proxy: ChildProcess | undefined;
  let proxyExit: Promise<unknown> | undefined;
  let a: ReliabilityApp;
  let b: ReliabilityApp;
  let url: string;
  let buffered: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([startReliabilityApp({ mrtr: { secret }, instance: 'a' }), startReliabilityApp({ mrtr: { secret }, instance: 'b' })]);
    dir = mkdtempSync(join(tmpdir(), 'nest-mcp-nginx-'));
    for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, [a.port, b.port]));
    const check = spawnSync(nginx, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
    proxy = spawn(nginx, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proxy.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proxyExit = new Promise((resolve) => proxy!.on('exit', resolve));
    const up = await (async () => {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        if (proxy!.exitCode !== null) return false;
        if (await canConnect(port)) return true;
        await sleep(25);
      }
      return false;
    })();
    if (!up) throw new Error(`nginx did not start:\n${stderr}\n${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`);
    url = `http://127.0.0.1:${port}/mcp`;
    buffered = `http://127.0.0.1:${port}/buffered/mcp`;
  }, 20_000);

  afterAll(async () => {
    if (proxy && proxy.exitCode === null && proxy.signalCode === null) {
      proxy.kill('SIGQUIT');
      const stopped = await Promise.race([proxyExit!.then(() => true), deadline(3000).then(() => false)]);
      if (!stopped) proxy.kill('SIGKILL');
    }
    await Promise.all([a?.app.close(), b?.app.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function call(target: string, body: Json): Promise<{ instance: string | null; messages: Json[]; final: Json }> {
    const response = await fetch(target, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
    const text = await response.text();
    const messages = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? parseSse(text) : [JSON.parse(text)];
    return { instance: response.headers.get('x-instance'), messages, final: messages.at(-1) };
  }

  it('proxies to both instances round-robin', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 4; i++) seen.add((await call(url, rpc('tools/call', { name: 'echo', arguments: { message: `rr ${i}` } }))).instance);
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('the 3-round upgrade-plan elicitation lands on both instances and completes', async () => {
    const userId = `u-nginx-${Date.now()}`;
    const landed: Array<string | null> = [];
    const body = (extra: Record<string, unknown>) => rpc('tools/call', { name: 'upgrade-plan', arguments: { userId }, ...extra }, { meta: CAPS });
    const round1 = await call(url, body({}));
    landed.push(round1.instance);
    expect(round1.final.result.resultType).toBe('input_required');
    const round2 = await call(url, body({ inputResponses: { 'elicitation-1': { action: 'accept', content: { plan: 'team' } } }, requestState: round1.final.result.requestState }));
    landed.push(round2.instance);
    expect(round2.final.result.resultType).toBe('input_required');
    const round3 = await call(url, body({ inputResponses: { 'elicitation-2': { action: 'accept', content: { confirmed: true } } }, requestState: round2.final.result.requestState }));
    landed.push(round3.instance);
    expect(round3.final.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'team' } });
    expect(new Set(landed)).toEqual(new Set(['a', 'b']));
    console.log(`upgrade-plan rounds through nginx landed on: ${landed.join(', ')}`);
  });

  /** Streams a slow progress call and records when each event arrived. */
  async function timedProgress(target: string, tag: string): Promise<{ arrivals: Array<{ at: number; message: Json }>; instance: string | null; accel: string | null }> {
    const body = rpc('tools/call', { name: 'drip', arguments: { tag, steps: 4, gapMs: 150 } }, { meta: { progressToken: `p-${tag}` } });
    const began = Date.now();
    const response = await fetch(target, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const arrivals: Array<{ at: number; message: Json }> = [];
    let buffer = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        for (const message of parseSse(buffer.slice(0, end + 2))) arrivals.push({ at: Date.now() - began, message });
        buffer = buffer.slice(end + 2);
      }
    }
    return { arrivals, instance: response.headers.get('x-instance'), accel: response.headers.get('x-accel-buffering') };
  }

  function expectIncremental(arrivals: Array<{ at: number; message: Json }>): void {
    const progress = arrivals.filter(({ message }) => message.method === 'notifications/progress');
    const final = arrivals.at(-1)!;
    expect(progress.map(({ message }) => message.params.progress)).toEqual([1, 2, 3, 4]);
    expect(final.message.result.content[0].text).toMatch(/^drip .* done$/);
    // The tool takes ~600 ms; with buffering every event would arrive together with the response.
    expect(final.at - progress[0].at).toBeGreaterThan(300);
    expect(progress[1].at).toBeGreaterThan(progress[0].at);
  }

  it('progress over SSE through nginx arrives incrementally, before the final response', async () => {
    const { arrivals, instance } = await timedProgress(url, 'nginx-sse');
    expect(['a', 'b']).toContain(instance);
    expectIncremental(arrivals);
    console.log(`SSE through nginx (proxy_buffering off), arrivals in ms: ${arrivals.map(({ at }) => at).join(', ')}`);
  });

  it("with nginx's default proxy buffering, the X-Accel-Buffering: no header alone keeps SSE incremental", async () => {
    const { arrivals, accel } = await timedProgress(buffered, 'nginx-buffered');
    // nginx consumes X-Accel-* headers from the upstream; it does not forward them.
    expect(accel).toBeNull();
    expectIncremental(arrivals);
    console.log(`SSE through nginx (default buffering + X-Accel-Buffering: no), arrivals in ms: ${arrivals.map(({ at }) => at).join(', ')}`);
  });

  it('nginx logged no upstream errors', async () => {
    expect(await waitFor(() => existsSync(join(dir, 'access.log')))).toBe(true);
    const errors = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
    expect(errors).not.toMatch(/upstream prematurely closed|connect\(\) failed|\[error\]/);
  });
});
