// `npm run bench:stdio` (second part): what one call costs over stdio, once the sample is up, and what a
// call with progress pays for its result's pause behind its notifications (issue 35). The built sample is
// spawned once (dist/sample/main-stdio.js) and driven through raw pipes, one call at a time, timed from
// writing the request line to reading the response line:
//   - `echo`, no progress: the plain call;
//   - `process` without a progressToken: it sends no notification, so its result never pauses;
//   - `process` with a progressToken: progress 1, 2, 3, then the result, which pauses behind the last one.
// The last two differ only by the notifications and the pause: their difference is the added time. A bare
// `node` child answering each line with a fixed response is the baseline (the pipe round trip itself).
// Calls run interleaved (bare, echo, process, process with progress, bare, …) so load drifts hit all alike.
// Every answer is checked (id, result, the notifications before it). Prints figures; asserts nothing about time.
//   node bench/stdio-calls.mjs [--calls N]     (after `npm run build`)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, positiveIntOption } from './harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'dist/sample/main-stdio.js';
const PROTOCOL_VERSION = '2026-07-28';
const DEFAULT_CALLS = 200;
const TIMEOUT_MS = 30_000;

const meta = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'nest-mcp-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

/** A child speaking newline-delimited JSON-RPC; `call(message)` resolves with { ms, response, notifications }. */
function startChild(args) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  let stderr = '';
  let pending;
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const message = JSON.parse(line);
      if (!pending) throw new Error(`a line nobody awaited: ${line}`);
      if (message.id === pending.id && ('result' in message || 'error' in message)) {
        const { resolve, started, notifications, timer } = pending;
        pending = undefined;
        clearTimeout(timer);
        resolve({ ms: performance.now() - started, response: message, notifications });
      } else {
        pending.notifications.push(message);
      }
    }
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  child.on('close', (code) => pending?.reject(new Error(`the child exited (${code}); stderr:\n${stderr}`)));
  return {
    call(message) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${message.id} within ${TIMEOUT_MS} ms; stderr:\n${stderr}`)), TIMEOUT_MS);
        pending = { id: message.id, resolve, reject, timer, notifications: [], started: performance.now() };
        child.stdin.write(`${JSON.stringify(message)}\n`);
      });
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

const BARE = [
  '--input-type=module',
  '-e',
  "const { createInterface } = await import('node:readline');" +
    " createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(line).id, result: {} }) + '\\n'));",
];

let nextId = 1;
const SUBJECTS = {
  bare: {
    label: 'bare node (answers each line)',
    child: 'bare',
    request: () => ({ jsonrpc: '2.0', id: nextId++, method: 'ping' }),
    check: ({ response, notifications }) => 'result' in response && notifications.length === 0,
  },
  echo: {
    label: '`echo`, no progress',
    child: 'sample',
    request: () => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'echo', arguments: { message: 'bench' }, _meta: meta() } }),
    check: ({ response, notifications }) => JSON.stringify(response.result?.content ?? null).includes('bench') && notifications.length === 0,
  },
  process: {
    label: '`process` without a progressToken (no notification)',
    child: 'sample',
    request: () => ({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'process', arguments: { data: 'bench' }, _meta: meta() } }),
    check: ({ response, notifications }) => response.result?.structuredContent?.result === 'Done: processed 5 characters' && notifications.length === 0,
  },
  progress: {
    label: '`process` with a progressToken (progress 1, 2, 3, then the result)',
    child: 'sample',
    request: () => {
      const id = nextId++;
      return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'process', arguments: { data: 'bench' }, _meta: meta({ progressToken: `p${id}` }) } };
    },
    check: ({ response, notifications }) =>
      response.result?.structuredContent?.result === 'Done: processed 5 characters' &&
      JSON.stringify(notifications.map((n) => [n.method, n.params?.progressToken, n.params?.progress])) ===
        JSON.stringify([1, 2, 3].map((step) => ['notifications/progress', `p${response.id}`, step])),
  },
};

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** { [subject]: { calls, medianMs, p99Ms, maxMs, samples } }, the calls interleaved across subjects. */
export async function callFigures({ calls = DEFAULT_CALLS, subjects = Object.keys(SUBJECTS) } = {}) {
  const children = { bare: startChild(BARE), sample: startChild([ENTRY]) };
  const samples = Object.fromEntries(subjects.map((name) => [name, []]));
  try {
    // The first call of each kind warms the JIT and the sample's start-up; it is not counted.
    for (let run = -1; run < calls; run++) {
      for (const name of subjects) {
        const subject = SUBJECTS[name];
        const outcome = await children[subject.child].call(subject.request());
        if (!subject.check(outcome)) throw new Error(`${name}: unexpected answer ${JSON.stringify(outcome)}`);
        if (run >= 0) samples[name].push(outcome.ms);
      }
    }
  } finally {
    await Promise.all([children.bare.stop(), children.sample.stop()]);
  }
  return Object.fromEntries(
    subjects.map((name) => [name, { calls, medianMs: median(samples[name]), p99Ms: percentile(samples[name], 99), maxMs: Math.max(...samples[name]), samples: samples[name] }]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const calls = positiveIntOption('calls', DEFAULT_CALLS);
  const loadBefore = os.loadavg();
  const figures = await callFigures({ calls });
  const loadAfter = os.loadavg();
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  console.log(`\nstdio calls: request line to response line, one call at a time (${calls} calls each, interleaved; Node ${process.version}, ${os.cpus().length} cores)`);
  console.log(`load average (1/5/15 min): ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after\n`);
  console.log('| call | median | p99 | max | median × bare node |');
  console.log('|---|---|---|---|---|');
  for (const [name, f] of Object.entries(figures)) {
    console.log(`| ${SUBJECTS[name].label} | ${fmt(f.medianMs)} | ${fmt(f.p99Ms)} | ${fmt(f.maxMs)} | ${(f.medianMs / figures.bare.medianMs).toFixed(1)}× |`);
  }
  const added = (key) => figures.progress[key] - figures.process[key];
  console.log(`\nAdded by the notifications and the result's pause (process with progress minus without): median ${fmt(added('medianMs'))}, p99 ${fmt(added('p99Ms'))}.`);
}
