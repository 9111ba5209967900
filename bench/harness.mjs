// Shared bench plumbing: server children, a keep-alive HTTP client, autocannon runs, statistics.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { RedisMcpStore } from 'nest-mcp';

export const PROTOCOL_VERSION = '2026-07-28';
export const MESSAGE = 'hello, bench';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The standard 2026-07-28 per-request `_meta`. */
export function meta(extra = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'nest-mcp-bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

/** The headers a conforming 2026-07-28 client sends with `body`. */
export function headersFor(body) {
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': PROTOCOL_VERSION,
    'mcp-method': body.method,
  };
  if (body.method === 'tools/call') headers['mcp-name'] = body.params.name;
  return headers;
}

export function echoRequest(id = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message: MESSAGE }, _meta: meta() } };
}

/**
 * Forks `servers/<name>.mjs` on 127.0.0.1 (random port) and waits for its ready message.
 * Returns { name, pid, port, url, ask(cmd), stop() }.
 */
export function startServer(name, { execArgv = ['--expose-gc'], env = {}, timeoutMs = 30_000 } = {}) {
  const child = fork(`${here}servers/${name}.mjs`, [], {
    execArgv,
    env: { ...process.env, PORT: '0', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      for (const { reject: fail } of pending.values()) fail(new Error(`${name} exited (${code})`));
      reject(new Error(`${name} exited with ${code} before it was ready`));
    });
    child.on('message', (msg) => {
      if (msg?.ready) {
        clearTimeout(timer);
        const ask = (cmd, askTimeoutMs = 10_000) =>
          new Promise((ok, fail) => {
            const id = nextId++;
            const t = setTimeout(() => {
              pending.delete(id);
              fail(new Error(`${name}: no answer to ${cmd}`));
            }, askTimeoutMs);
            pending.set(id, {
              resolve: (value) => {
                clearTimeout(t);
                ok(value);
              },
              reject: fail,
            });
            child.send({ id, cmd });
          });
        const stop = () =>
          new Promise((ok) => {
            if (child.exitCode !== null) return ok();
            const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(kill);
              ok();
            });
            child.send({ id: nextId++, cmd: 'exit' });
          });
        resolve({ name, pid: msg.pid, port: msg.port, url: `http://127.0.0.1:${msg.port}/mcp`, ask, stop, child });
        return;
      }
      const waiter = pending.get(msg?.id);
      if (waiter) {
        pending.delete(msg.id);
        waiter.resolve(msg);
      }
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One request over a keep-alive agent (the shared one unless `via` is given): by default a POST of `body` with
 * the standard 2026-07-28 headers; `headers` replaces them, `method` without a body sends none.
 * Resolves { status, headers, contentType, text, bytes }.
 */
export function post(url, body, { timeoutMs = 10_000, via = agent, method = 'POST', headers } = {}) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: via, headers: { ...(headers ?? headersFor(body)), 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks = [];
      let bytes = 0;
      res.on('data', (chunk) => {
        chunks.push(chunk);
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8'), bytes }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The JSON-RPC messages of a JSON or SSE body. */
export function messagesOf(reply) {
  if (reply.contentType.startsWith('application/json')) return [JSON.parse(reply.text)];
  if (!reply.contentType.startsWith('text/event-stream')) return [];
  const out = [];
  for (const event of reply.text.split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data) out.push(JSON.parse(data));
  }
  return out;
}

/** One autocannon run; returns the figures the table needs. */
export async function cannon(url, body, { connections = 50, pipelining = 1, duration, amount, expectBody, headers } = {}) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: headers ?? headersFor(body),
    body: JSON.stringify(body),
    connections,
    pipelining,
    ...(amount !== undefined ? { amount } : { duration }),
    timeout: 10,
    ...(expectBody !== undefined ? { expectBody } : {}),
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `--name N` on the command line: a positive integer, or `fallback` when the flag is absent. */
export function positiveIntOption(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive integer`);
  return value;
}

/** Runs `cleanUp` (synchronous: killing children, removing folders) on every way out: the end, an error, Ctrl-C, SIGTERM. */
export function onEveryExit(cleanUp) {
  process.on('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
}

export const sum = (values) => values.reduce((a, b) => a + b, 0);
export const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const SAMPLE_LOG_TAIL = 64 * 1024;

/**
 * The built sample's HTTP server (`dist/sample/main.js`, what `npm start` runs) on a random loopback port, in
 * `cwd` (where it reads a `.env`), with `env` over this process's environment (an undefined value unsets one).
 * Resolves { url, child, output() } once it listens; output() is the tail of its log. Killed if it does not.
 */
export function startSample({ env = {}, cwd = join(here, '..'), timeoutMs = 30_000 } = {}) {
  const child = spawn(process.execPath, [join(here, '..', 'dist/sample/main.js')], {
    cwd,
    env: { ...process.env, PORT: '0', NODE_ENV: 'production', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let listening = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sample did not listen within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    const seen = (chunk) => {
      log = (log + chunk).slice(-SAMPLE_LOG_TAIL);
      const endpoint = listening ? undefined : /MCP endpoint: (http:\/\/\S+)/.exec(log);
      if (!endpoint) return;
      listening = true;
      clearTimeout(timer);
      resolve({ url: endpoint[1], child, output: () => log });
    };
    child.stdout.setEncoding('utf8').on('data', seen);
    child.stderr.setEncoding('utf8').on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sample exited (${code}) before listening:\n${log}`));
    });
  });
}

/** A throwaway redis-server on a free loopback port, with a connected RedisMcpStore; undefined without the binary. */
export async function startRedis(options = {}) {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'].find((path) => existsSync(path));
  if (!binary) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-bench-redis-'));
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', '--dir', dir], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const store = await RedisMcpStore.connect(url, options);
      return { url, store, stop: () => (child.kill(), rmSync(dir, { recursive: true, force: true })) };
    } catch {
      await sleep(50);
    }
  }
  child.kill();
  throw new Error('redis-server did not start');
}
