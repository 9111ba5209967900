// `npm run bench:bus`: what the bus between instances costs (issue 27). Two rows:
//  - a 2025 elicitation (3 questions, 4 HTTP exchanges) whose answers are posted to another instance
//    than the one holding the call (what round-robin does: the bus carries them) against answers
//    posted to the instance holding it (direct); two bench servers sharing one redis-server;
//  - the bus's own delivery latency (publish on one connection → handler on another), Redis and in memory.
// Prints figures as ratios and percentiles; asserts nothing about time.
//   node bench/bus.mjs [--quick]     (after `npm run build`; needs redis-server, else skipped)
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { InMemoryMcpBus, RedisMcpBus } from 'nest-mcp';
import { eventStreamData } from '../dist/lib/testing/event-stream.js';
import { median, startRedis, startServer } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const LEGACY = '2025-11-25';
const ANSWERS = { 'Question 1: your name?': { name: 'bench' }, 'Question 2: your plan?': { plan: 'pro' }, 'Question 3: confirm?': { confirmed: true } };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sessionHeaders = (sessionId) => ({ accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY });

async function openSession(url) {
  const body = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'bench', version: '1' } } };
  const response = await fetch(url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.text();
  return response.headers.get('mcp-session-id');
}

let nextId = 1;
/** One `survey` call on `callUrl`, each answer posted to `answerUrl`; ms from the call's POST to its result. */
async function survey(callUrl, answerUrl, sessionId) {
  const started = performance.now();
  const body = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'survey', arguments: {} } };
  const response = await fetch(callUrl, { method: 'POST', headers: sessionHeaders(sessionId), body: JSON.stringify(body) });
  for await (const data of eventStreamData(response.body)) {
    const message = JSON.parse(data);
    if (message.method === 'elicitation/create') {
      const answer = { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: ANSWERS[message.params.message] } };
      const posted = await fetch(answerUrl, { method: 'POST', headers: sessionHeaders(sessionId), body: JSON.stringify(answer) });
      await posted.text();
      if (posted.status !== 202) throw new Error(`an answer was refused with HTTP ${posted.status}`);
    } else if (message.id === body.id) {
      if (!message.result || message.result.isError) throw new Error(`survey failed: ${data}`);
      return performance.now() - started;
    }
  }
  throw new Error('the survey stream ended without its result');
}

/**
 * ms from posting a 2025 `notifications/cancelled` to instance `cancelUrl` until the call it names,
 * waiting for an answer on `callUrl`, has stopped (the dispatcher fires the handler's signal and ends
 * the call's stream, which the client sees end).
 */
async function cancelAcross(callUrl, cancelUrl, sessionId) {
  const id = `cancel-${nextId++}`;
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'survey', arguments: {} } };
  const response = await fetch(callUrl, { method: 'POST', headers: sessionHeaders(sessionId), body: JSON.stringify(body) });
  const events = eventStreamData(response.body);
  const first = JSON.parse((await events.next()).value);
  if (first.method !== 'elicitation/create') throw new Error(`expected a question, got ${JSON.stringify(first)}`);
  const sent = performance.now();
  const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } };
  const posted = await fetch(cancelUrl, { method: 'POST', headers: sessionHeaders(sessionId), body: JSON.stringify(cancel) });
  await posted.text();
  const rest = await events.next();
  if (!rest.done) throw new Error(`the cancelled call wrote more: ${rest.value}`);
  return performance.now() - sent;
}

/** Median ms per elicitation call, direct and through the bus, interleaved over `runs` runs of `calls` each. */
async function elicitation({ runs, calls }) {
  const redis = await startRedis();
  if (!redis) return { skipped: 'redis-server not installed (apt-get install -y redis-server)' };
  await redis.store.close();
  const env = { MOCAPI_STORE_REDIS_URL: redis.url };
  const servers = await Promise.all([startServer('nest-mcp', { env }), startServer('nest-mcp', { env })]);
  try {
    const [a, b] = servers.map((server) => server.url);
    const sessionId = await openSession(a);
    const samples = { direct: [], bus: [] };
    const medians = { direct: [], bus: [] };
    for (let i = 0; i < 20; i++) await survey(a, i % 2 ? a : b, sessionId); // warm-up, both paths
    for (let run = 0; run < runs; run++) {
      for (const mode of run % 2 ? ['bus', 'direct'] : ['direct', 'bus']) {
        const times = [];
        for (let call = 0; call < calls; call++) times.push(await survey(a, mode === 'direct' ? a : b, sessionId));
        samples[mode].push(...times);
        medians[mode].push(median(times));
      }
    }
    const summary = (mode) => {
      const sorted = [...samples[mode]].sort((x, y) => x - y);
      return { ms: median(medians[mode]), p50: percentile(sorted, 50), p99: percentile(sorted, 99), calls: sorted.length };
    };
    const cancels = [];
    for (let i = 0; i < calls * 2; i++) cancels.push(await cancelAcross(a, b, sessionId));
    cancels.sort((x, y) => x - y);
    const cancel = { p50: percentile(cancels, 50), p99: percentile(cancels, 99), count: cancels.length };
    return { direct: summary('direct'), bus: summary('bus'), cancel };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    redis.stop();
  }
}

/** Publish → handler latency of `count` messages one at a time, from `from` to a handler subscribed on `to`: µs percentiles. */
async function delivery(from, to, count) {
  const latencies = [];
  let arrived;
  await to.subscribe('bench-latency', (message) => arrived?.(message));
  for (let i = 0; i < count; i++) {
    const received = new Promise((resolve) => (arrived = resolve));
    const sent = performance.now();
    await from.publish('bench-latency', { i });
    await received;
    latencies.push((performance.now() - sent) * 1000);
  }
  latencies.sort((x, y) => x - y);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), count };
}

/** The bus figures: { elicitation, latency: [{ bus, p50, p99, count } | { bus, skipped }] }. `npm run bench` reuses it. */
export async function busFigures({ quick = QUICK } = {}) {
  const count = quick ? 500 : 5_000;
  const latency = [];
  const memory = new InMemoryMcpBus();
  latency.push({ bus: 'in memory (one process)', ...(await delivery(memory, memory, count)) });
  const redis = await startRedis();
  if (!redis) latency.push({ bus: 'Redis pub/sub', skipped: 'redis-server not installed' });
  else {
    await redis.store.close();
    const [one, two] = await Promise.all([RedisMcpBus.connect(redis.url), RedisMcpBus.connect(redis.url)]);
    try {
      latency.push({ bus: 'Redis pub/sub (loopback, two instances)', ...(await delivery(one, two, count)) });
    } finally {
      await Promise.all([one.close(), two.close()]);
      redis.stop();
    }
  }
  const elicited = await elicitation({ runs: quick ? 2 : 6, calls: quick ? 30 : 100 });
  return { elicitation: elicited, latency };
}

const fmt = (n, digits = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The table rows (run.mjs prints them in its table, numbered 7). */
export function busRows({ elicitation: e, latency }) {
  const rows = [];
  if (e.skipped) rows.push(`| 8 | 2025 elicitation, answers through the bus vs direct | nest-mcp, 2 instances + Redis | skipped | ${e.skipped} |`);
  else {
    for (const [mode, label] of [['bus', 'answers posted to the other instance (round-robin: the bus carries them)'], ['direct', 'answers posted to the instance holding the call (direct)']]) {
      const f = e[mode];
      rows.push(
        `| 8 | 2025 elicitation, 3 questions (4 POSTs) | ${label} | **${fmt(f.ms, 2)} ms** per call · ${(f.ms / e.direct.ms).toFixed(2)}× direct | ` +
          `median of run medians · p50 ${fmt(f.p50, 2)} · p99 ${fmt(f.p99, 2)} ms · ${fmt(f.calls)} calls, one in flight, runs interleaved |`,
      );
    }
  }
  if (!e.skipped) {
    rows.push(
      `| 8 | 2025 notifications/cancelled posted to another instance → the call stopped | nest-mcp, 2 instances + Redis | **p50 ${fmt(e.cancel.p50, 2)} ms** · p99 ${fmt(e.cancel.p99, 2)} ms | ` +
        `${fmt(e.cancel.count)} cancels, one in flight; from the cancel's POST until the client saw the call's stream end (target: p99 ≤ 100 ms) |`,
    );
  }
  for (const l of latency) {
    rows.push(
      l.skipped
        ? `| 8 | bus delivery, publish → handler | ${l.bus} | skipped | ${l.skipped} |`
        : `| 8 | bus delivery, publish → handler | ${l.bus} | **p50 ${fmt(l.p50, 1)} µs** · p99 ${fmt(l.p99, 1)} µs | ${fmt(l.count)} messages, one in flight |`,
    );
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await busFigures();
  console.log('\n| # | Benchmark | Subject | Result | Detail |\n|---|---|---|---|---|');
  for (const row of busRows(figures)) console.log(row);
}
