/**
 * Real nginx and redis-server processes for the e2e tests, on free loopback ports, each in its own
 * temporary directory. Debian packages: `apt-get install -y nginx redis-server` (CI installs them).
 */
import { it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { until } from './waiting.js';

/** `name` on PATH, or in the sbin/bin folders Debian packages install to. */
export function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];
  return dirs.filter(Boolean).map((dir) => join(dir, name)).find((path) => existsSync(path));
}

/**
 * Call inside a `describe` when the binary is missing: on CI the suite fails (CI must install it),
 * locally it is skipped with a console message.
 */
export function missingBinary(name: string, what: string): void {
  const install = `apt-get install -y ${name === 'redis-server' ? 'redis-server' : name}`;
  if (process.env.CI) {
    it(`needs ${name}`, () => {
      throw new Error(`${name} is not installed: ${install}`);
    });
  } else {
    console.log(`${name} not found on PATH or in /usr/sbin: skipping ${what} (install it: ${install})`);
    it.skip(`needs ${name} (${install})`, () => undefined);
  }
}

export function freePort(): Promise<number> {
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

/** A started server process and its scratch directory. */
export interface LocalService {
  port: number;
  dir: string;
  /** Reads a file of the scratch directory ('' when it does not exist). */
  readFile(name: string): string;
  stop(): Promise<void>;
}

/** Spawns `binary args`, waits until it accepts connections on `port`, else fails with its stderr and `logFile`. */
async function startService(name: string, binary: string, args: string[], port: number, dir: string, logFile: string): Promise<LocalService> {
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const readFile = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(resolve, 3000, false).unref())]);
      if (!stopped) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // The port accepting connections is the readiness event; an exit ends the wait at once.
  try {
    await until(async () => child.exitCode !== null || (await canConnect(port)), `${name} to accept connections on ${port}`);
    if (child.exitCode === null) return { port, dir, readFile, stop };
  } catch (error) {
    stderr += `\n${String(error)}`;
  }
  const logs = `${stderr}\n${readFile(logFile)}`;
  await stop();
  throw new Error(`${name} did not start:\n${logs}`);
}

/** The settings docs/operations/ documents for running nest-mcp behind nginx. */
function nginxConfig(dir: string, port: number, upstreams: number[], balance?: string): string {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return `# written by test/support/local-services.ts
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
${balance ? `    ${balance}\n` : ''}${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
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

/**
 * nginx over `upstreams` (ports on 127.0.0.1): `/mcp` unbuffered, `/buffered/mcp` with nginx's default
 * buffering. Round-robin, unless `balance` names another method (e.g. `hash $http_mcp_session_id consistent;`).
 */
export async function startNginx(binary: string, upstreams: number[], balance?: string): Promise<LocalService & { url: string; buffered: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams, balance));
  const check = spawnSync(binary, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const service = await startService('nginx', binary, ['-c', join(dir, 'nginx.conf'), '-p', dir], port, dir, 'error.log');
  return { ...service, url: `http://127.0.0.1:${port}/mcp`, buffered: `http://127.0.0.1:${port}/buffered/mcp` };
}

/**
 * nginx running `file`, a conf.d-style file (its `upstream` and `server` blocks, as
 * examples/several-instances/nginx.conf), inside the main configuration the tests use: its upstream
 * `server` lines become `upstreams` (ports on 127.0.0.1) and it listens on a free loopback port.
 */
export async function startNginxWith(binary: string, file: string, upstreams: number[]): Promise<LocalService & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const port = await freePort();
  const servers = upstreams.map((upstream) => `server 127.0.0.1:${upstream};`).join('\n  ');
  const site = readFileSync(file, 'utf8')
    .replace(/^(\s*server\s+[^\s;{]+;\s*\n)+/m, `  ${servers}\n`)
    .replace(/^(\s*)listen\s+[^;]+;/m, `$1listen 127.0.0.1:${port};`);
  if (!site.includes(`listen 127.0.0.1:${port};`) || !site.includes(servers)) throw new Error(`${file}: no upstream server lines or no listen directive to rewrite`);
  writeFileSync(join(dir, 'site.conf'), site);
  const main = nginxConfig(dir, port, upstreams).replace(/\n  # Round-robin \(the default\)[\s\S]*\n}\n$/, `\n  include ${join(dir, 'site.conf')};\n}\n`);
  writeFileSync(join(dir, 'nginx.conf'), main);
  const check = spawnSync(binary, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const service = await startService('nginx', binary, ['-c', join(dir, 'nginx.conf'), '-p', dir], port, dir, 'error.log');
  return { ...service, url: `http://127.0.0.1:${port}/mcp` };
}

/** A throw-away redis-server on 127.0.0.1: no persistence, no protected-mode surprises. `port`: to start it again where it was. */
export async function startRedis(binary: string, port?: number): Promise<LocalService & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-redis-'));
  port ??= await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, 'redis.log')];
  const service = await startService('redis-server', binary, args, port, dir, 'redis.log');
  return { ...service, url: `redis://127.0.0.1:${port}` };
}
