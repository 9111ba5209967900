// `node bench/stdio-progress.mjs` (after `npm run build`): do the official SDK clients see every progress
// notification of a call before its result (issue 35)? Each client calls the sample's `process` tool (progress
// 1, 2, 3, then the result) `--calls` times, one call after another, and the script counts the calls whose
// `onprogress` saw 1, 2, 3 by the time the call resolved, and the "Received a progress notification for an
// unknown token" errors (a notification read behind its result: the client had already retired the handler).
// Prints counts; asserts nothing, so it shows the state of any build. Subjects:
//   v1         @modelcontextprotocol/sdk 1.x, StdioClientTransport, spawning dist/sample/main-stdio.js (2025 session)
//   client2    @modelcontextprotocol/client 2.x, StdioClientTransport, same child (pinned to 2026-07-28)
//   remote     the v1 SDK over stdio to `mcp-remote`, which reaches the sample's HTTP server (dist/sample/main.js)
//   v1-http    the v1 SDK's StreamableHTTPClientTransport straight to the HTTP server (2025 session, POST SSE)
//   client2-http  the client 2.x's StreamableHTTPClientTransport straight to the HTTP server
// Options: --calls N (200), --clients a,b (v1,client2,remote), --busy N: N busy loops (`node -e 'for(;;);'`)
// run beside the clients for the whole measurement and are killed by their pid at the end, whatever happens.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onEveryExit, positiveIntOption, startSample } from './harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STDIO_ENTRY = 'dist/sample/main-stdio.js';
const MCP_REMOTE = join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
const PROTOCOL_VERSION = '2026-07-28';
const EXPECTED = '1,2,3';

/** Children this script started (busy loops, the HTTP server): killed by pid on every way out. */
const children = new Set();
function killAll() {
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
}
onEveryExit(killAll);

/** Linux's CPU pressure (the share of the last 10 s some task waited for a CPU): how idle "idle" was. */
function cpuPressure() {
  try {
    const some = /some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return some ? `CPU pressure (some, avg10) ${some[1]} %` : 'CPU pressure unknown';
  } catch {
    return 'CPU pressure unknown';
  }
}

function busyLoops(count) {
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' });
    children.add(child);
  }
}

/** The sample's HTTP server on a random loopback port; resolves with its /mcp URL. */
async function startHttpSample() {
  const sample = await startSample();
  children.add(sample.child);
  return sample.url;
}

const v1Info = { name: 'nest-mcp-progress-bench', version: '1.0.0' };
const stdioChild = { command: process.execPath, args: [STDIO_ENTRY], cwd: ROOT, env: { ...process.env }, stderr: 'ignore' };

/** Each subject: how to connect, and how to call `process` with an onprogress callback. */
const SUBJECTS = {
  v1: {
    label: 'v1 SDK over stdio',
    connect: async () => {
      const client = new ClientV1(v1Info, { capabilities: {} });
      return { client, transport: new StdioV1(stdioChild) };
    },
    call: (client, onprogress) => client.callTool({ name: 'process', arguments: { data: 'bench' } }, undefined, { onprogress }),
  },
  client2: {
    label: 'client 2.x over stdio',
    connect: async () => {
      const client = new Client(v1Info, { capabilities: {}, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } });
      return { client, transport: new StdioClientTransport(stdioChild) };
    },
    call: (client, onprogress) => client.callTool({ name: 'process', arguments: { data: 'bench' } }, { onprogress }),
  },
  remote: {
    label: 'v1 SDK over stdio through mcp-remote (HTTP to the sample)',
    http: true,
    connect: async (url, home) => {
      const client = new ClientV1(v1Info, { capabilities: {} });
      // mcp-remote keeps its state under ~/.mcp-auth: a throwaway HOME keeps the user's out of it.
      const transport = new StdioV1({ command: process.execPath, args: [MCP_REMOTE, url, '--silent'], cwd: ROOT, env: { ...process.env, HOME: home }, stderr: 'ignore' });
      return { client, transport };
    },
    call: (client, onprogress) => client.callTool({ name: 'process', arguments: { data: 'bench' } }, undefined, { onprogress }),
  },
  'v1-http': {
    label: 'v1 SDK over HTTP (2025 session, POST SSE)',
    http: true,
    connect: async (url) => ({ client: new ClientV1(v1Info, { capabilities: {} }), transport: new HttpV1(new URL(url)) }),
    call: (client, onprogress) => client.callTool({ name: 'process', arguments: { data: 'bench' } }, undefined, { onprogress }),
  },
  'client2-http': {
    label: 'client 2.x over HTTP (2026-07-28)',
    http: true,
    connect: async (url) => ({
      client: new Client(v1Info, { capabilities: {}, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } }),
      transport: new StreamableHTTPClientTransport(new URL(url)),
    }),
    call: (client, onprogress) => client.callTool({ name: 'process', arguments: { data: 'bench' } }, { onprogress }),
  },
};

/** `calls` calls of `process` by one client; counts what it saw. */
async function measure(subject, calls, url, home) {
  const { client, transport } = await subject.connect(url, home);
  const counts = { complete: 0, unknownToken: 0, otherErrors: [] };
  client.onerror = (error) => {
    if (/unknown token/.test(error.message)) counts.unknownToken++;
    else counts.otherErrors.push(error.message);
  };
  await client.connect(transport);
  try {
    for (let i = 0; i < calls; i++) {
      const seen = [];
      const result = await subject.call(client, (update) => seen.push(update.progress));
      if (!JSON.stringify(result.content ?? result).includes('Done: processed 5 characters')) counts.otherErrors.push(`unexpected result ${JSON.stringify(result)}`);
      if (seen.join() === EXPECTED) counts.complete++;
    }
    // A notification read behind its result is reported a microtask later: one more turn brings them all in.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    await client.close();
  }
  return counts;
}

const calls = positiveIntOption('calls', 200);
const clientsFlag = process.argv.indexOf('--clients');
const names = (clientsFlag > 0 ? process.argv[clientsFlag + 1] : 'v1,client2,remote').split(',');
const busyFlag = process.argv.indexOf('--busy');
const busy = busyFlag > 0 ? Number(process.argv[busyFlag + 1]) : 0;
for (const name of names) if (!SUBJECTS[name]) throw new Error(`unknown client ${name}; known: ${Object.keys(SUBJECTS).join(', ')}`);
if (!Number.isInteger(busy) || busy < 0) throw new Error('--busy takes a whole number');

const home = mkdtempSync(join(os.tmpdir(), 'nest-mcp-progress-bench-'));
try {
  const url = names.some((name) => SUBJECTS[name].http) ? await startHttpSample() : undefined;
  busyLoops(busy);
  const loadBefore = os.loadavg();
  console.log(`\nstdio progress: ${calls} \`process\` calls per client (progress 1,2,3, then the result); ${busy} busy loop(s) beside; Node ${process.version}, ${os.cpus().length} cores`);
  console.log('| client | calls that saw 1,2,3 | unknown-token errors | other errors |');
  console.log('|---|---|---|---|');
  for (const name of names) {
    const counts = await measure(SUBJECTS[name], calls, url, home);
    console.log(`| ${SUBJECTS[name].label} | ${counts.complete}/${calls} | ${counts.unknownToken} | ${counts.otherErrors.length}${counts.otherErrors.length ? ` (${counts.otherErrors[0]})` : ''} |`);
  }
  const loadAfter = os.loadavg();
  console.log(`load average (1/5/15 min): ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after; ${cpuPressure()}`);
} finally {
  killAll();
  rmSync(home, { recursive: true, force: true });
}
