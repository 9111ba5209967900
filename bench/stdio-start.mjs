// `npm run bench:stdio`: how long the sample takes, run as a local MCP server over stdio, from spawn to
// its first answer — what a desktop client's start-up probe waits for. Each run spawns the built
// sample, writes one 2026-07-28 `server/discover` to stdin right after spawn (before the server is
// ready, as clients do), times the first stdout line, checks it is the right discover result and
// closes stdin, so the child exits as after a client's session. The sample runs as the fast-start recipe builds it (docs/guide/stdio.md: the
// esbuild bundle of scripts/bundle-stdio.mjs, with Node's compile cache), and without each step, so
// each row tells what its step buys. Two baselines run interleaved with them, so the figures read as
// ratios to what Node itself costs: a bare `node` answering the same line, and one that first imports
// @nestjs/core. Prints figures; asserts nothing about time.
//   node bench/stdio-start.mjs [--runs N]     (after `npm run build`; it bundles the sample itself)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bundleStdio } from '../scripts/bundle-stdio.mjs';
import { median, positiveIntOption } from './harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'dist/sample/main-stdio.js';
const BUNDLE = 'dist/sample/main-stdio.bundle.js';
/** Turns the compile cache off for a subject (the sample's entry turns it on otherwise). */
const NO_CACHE = { NODE_DISABLE_COMPILE_CACHE: '1' };
const PROTOCOL_VERSION = '2026-07-28';
const DEFAULT_RUNS = 11;
const TIMEOUT_MS = 30_000;

const DISCOVER = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 'probe',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'nest-mcp-bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
})}\n`;

/** A baseline child: reads one line from stdin and answers it with a fixed line, after `prelude`. */
const echoer = (prelude) =>
  `${prelude} const { createInterface } = await import('node:readline');` +
  ` createInterface({ input: process.stdin }).once('line', () => process.stdout.write('{"jsonrpc":"2.0","id":"probe","result":{}}\\n'));`;

export const SUBJECTS = {
  sample: { label: `nest-mcp sample, bundled, compile cache (${BUNDLE})`, args: [BUNDLE], check: isDiscoverResult },
  bundleNoCache: { label: 'nest-mcp sample, bundled, no compile cache', args: [BUNDLE], env: NO_CACHE, check: isDiscoverResult },
  unbundled: { label: `nest-mcp sample, tsc output, compile cache (${ENTRY})`, args: [ENTRY], check: isDiscoverResult },
  unbundledNoCache: { label: 'nest-mcp sample, tsc output, no compile cache', args: [ENTRY], env: NO_CACHE, check: isDiscoverResult },
  bare: { label: 'bare node (reads the line, answers)', args: ['--input-type=module', '-e', echoer('')], check: isProbeAnswer },
  nestCore: {
    label: "node importing @nestjs/core, then answering",
    args: ['--input-type=module', '-e', echoer("await import('reflect-metadata'); await import('@nestjs/core');")],
    check: isProbeAnswer,
  },
};

function isDiscoverResult(message) {
  const result = message.result;
  return (
    message.id === 'probe' &&
    result?.resultType === 'complete' &&
    Array.isArray(result.supportedVersions) &&
    result.supportedVersions.includes(PROTOCOL_VERSION) &&
    result._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'nest-mcp-sample'
  );
}

function isProbeAnswer(message) {
  return message.id === 'probe' && 'result' in message;
}

/**
 * Spawns `node ...args`, writes the discover line at once and resolves with the milliseconds from
 * spawn to the first complete stdout line; the line must pass `check`. The child has exited and is
 * reaped before this resolves, so runs never overlap.
 */
function timeFirstAnswer({ args, env, check }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let outcome;
    // Answered: close stdin, as a client that is done does, and the child exits on its own. That exit is
    // when Node writes the compile cache (a killed process writes none). A failure is killed at once.
    const finish = (value) => {
      if (outcome) return;
      outcome = value;
      if (value instanceof Error) child.kill('SIGKILL');
      else child.stdin.end();
    };
    const timer = setTimeout(() => {
      finish(new Error(`no answer or no exit within ${TIMEOUT_MS} ms; stderr:\n${stderr}`));
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0 || outcome) return;
      const elapsed = performance.now() - started;
      const line = stdout.slice(0, newline);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return finish(new Error(`the first stdout line is not JSON: ${line}`));
      }
      finish(check(message) ? elapsed : new Error(`unexpected first answer: ${line}`));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => finish(error));
    child.on('close', () => {
      clearTimeout(timer);
      if (!outcome) finish(new Error(`exited before answering; stderr:\n${stderr}`));
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    });
    // EPIPE from a child that died early is reported through 'close' above.
    child.stdin.on('error', () => {});
    child.stdin.write(DISCOVER);
  });
}

function summarise(samples) {
  return { runs: samples.length, medianMs: median(samples), minMs: Math.min(...samples), maxMs: Math.max(...samples), samples };
}

/**
 * Figures of each subject ({ runs, medianMs, minMs, maxMs, samples }, ms from spawn to the first answer),
 * runs interleaved (sample, bare node, @nestjs/core, sample, …) so load drifts hit all alike. One
 * unmeasured spawn of each subject first fills the compile cache (Node's default folder), as the first
 * start after an install or an upgrade does; the figures are of the starts after it. `npm run bench` reuses it.
 */
export async function allFigures({ runs = DEFAULT_RUNS, subjects = Object.keys(SUBJECTS) } = {}) {
  await bundleStdio(path.join(ROOT, ENTRY), path.join(ROOT, 'dist/sample/serve-stdio.js'));
  for (const name of subjects) await timeFirstAnswer(SUBJECTS[name]);
  const samples = Object.fromEntries(subjects.map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    for (const name of subjects) samples[name].push(await timeFirstAnswer(SUBJECTS[name]));
  }
  return Object.fromEntries(subjects.map((name) => [name, summarise(samples[name])]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = positiveIntOption('runs', DEFAULT_RUNS);
  const loadBefore = os.loadavg();
  const figures = await allFigures({ runs });
  const loadAfter = os.loadavg();
  const fmt = (ms) => `${Math.round(ms)} ms`;
  const base = figures.bare.medianMs;
  console.log(`\nstdio start: spawn to the first answer line (${runs} spawns each, interleaved; Node ${process.version}, ${os.cpus().length} cores)`);
  console.log(`load average (1/5/15 min): ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after\n`);
  const nest = figures.nestCore.medianMs;
  console.log('| subject | median | min | max | × bare node | × @nestjs/core import |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, f] of Object.entries(figures)) {
    console.log(`| ${SUBJECTS[name].label} | ${fmt(f.medianMs)} | ${fmt(f.minMs)} | ${fmt(f.maxMs)} | ${(f.medianMs / base).toFixed(1)}× | ${(f.medianMs / nest).toFixed(2)}× |`);
  }
  const ratio = (a, b) => (figures[a].medianMs / figures[b].medianMs).toFixed(2);
  console.log(`\nWhat each step buys (median ratios): the bundle ${ratio('sample', 'unbundled')}× the tsc output (both with the compile cache);`);
  console.log(`the compile cache ${ratio('sample', 'bundleNoCache')}× on the bundle, ${ratio('unbundled', 'unbundledNoCache')}× on the tsc output.`);
}
