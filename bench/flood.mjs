// `npm run bench:flood`: what one hostile client does to the others. Each row plays one flood at full speed
// from 127.0.0.1 against the built sample (`dist/sample/main.js`, what `npm start` runs, on its default
// settings with a fixed MRTR secret), its records in memory or in a redis-server started here (loopback, no
// persistence, noeviction), while a victim works at a modest steady pace from 127.0.0.2: without auth the
// module tells clients apart by their address. A row runs until the attacker has been limited (its first 429
// or 503) for FLOOD_AFTER_SECONDS (10), FLOOD_MAX_SECONDS (150) at most; each row starts a fresh app (and
// Redis). Prints a table; asserts nothing.
//   node bench/flood.mjs [--store memory,redis] [--flood claims,session-ends,tasks,short-tasks]   (after `npm run build`)
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { headersFor, messagesOf, meta, onEveryExit, post, sleep, startRedis, startSample } from './harness.mjs';

const ATTACKER_ADDRESS = '127.0.0.1';
const VICTIM_ADDRESS = '127.0.0.2';
/** Parallel request loops of the attacker: enough to keep the server busy on two shared cores. */
const ATTACK_LOOPS = 8;
/** The victim's flows in flight at most; a new one starts every `victimIntervalMs` of its flood. */
const VICTIM_MAX_IN_FLIGHT = 4;
const VICTIM_POLL_MS = 100;
/** tasks/get polls of one wait at most (the victim's report takes about a second). */
const MAX_POLLS = 100;
const SECRET = Buffer.from('flood-bench-fixed-secret-32bytes').toString('base64');
const LEGACY_VERSION = '2025-11-25';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const ELICITING = { elicitation: {} };
const WITH_TASKS = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const LEGACY_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

function secondsFromEnv(name, fallback) {
  const value = process.env[name] === undefined ? fallback : Number(process.env[name]);
  if (!(value > 0)) throw new Error(`${name} takes a positive number of seconds`);
  return value;
}

/** `--name a,b` on the command line: the chosen ones of `all` (all of them when the flag is absent). */
function listOption(name, all) {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return all;
  const chosen = String(process.argv[at + 1] ?? '').split(',');
  const unknown = chosen.filter((value) => !all.includes(value));
  if (unknown.length > 0 || chosen.length === 0) throw new Error(`--${name} takes a list of ${all.join(', ')}`);
  return chosen;
}

const AFTER_MS = secondsFromEnv('FLOOD_AFTER_SECONDS', 10) * 1000;
const MAX_MS = secondsFromEnv('FLOOD_MAX_SECONDS', 150) * 1000;

let nextId = 1;

/** A 2026-07-28 tools/call with `capabilities` declared in its `_meta`. */
function toolCall(name, args, capabilities, extra = {}) {
  return { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: meta({ [CAPABILITIES]: capabilities }) } };
}

/** A tasks/* request and its headers (Mcp-Name carries the task id). */
function taskRequest(method, params) {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta({ [CAPABILITIES]: WITH_TASKS }) } };
  return [body, { headers: { ...headersFor(body), 'mcp-name': params.taskId } }];
}

/** When the row ends: at its cap, or `AFTER_MS` after the attacker's first 429 or 503. */
class RowClock {
  started = performance.now();
  deadline = this.started + MAX_MS;
  /** { ms, status, code, retryAfter, units } of the attacker's first 429 or 503. */
  firstLimit;
  failure;

  running = () => this.failure === undefined && performance.now() < this.deadline;

  limited(reply, message, units) {
    if (this.firstLimit) return;
    const ms = performance.now() - this.started;
    this.firstLimit = { ms, status: reply.status, code: message?.error?.code, retryAfter: reply.headers['retry-after'], units };
    this.deadline = Math.min(this.deadline, this.started + ms + AFTER_MS);
  }
}

/** One client as the server sees it: its own loopback address and keep-alive sockets, and what it got back. */
class Client {
  requests = 0;
  /** Flows (attacker: its units of work, see FLOODS) that went through. */
  done = 0;
  attempts = 0;
  /** The victim's flows started once the attacker was limited, and how many of those went through. */
  attemptsWhileLimited = 0;
  doneWhileLimited = 0;
  /** "status code" (or what went wrong) → how many. */
  refusals = new Map();

  constructor(address, sockets, onLimited) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets, localAddress: address });
    this.onLimited = onLimited;
  }

  /** One request; resolves { status, headers, message } (the final JSON-RPC message), or undefined when refused. */
  async send(url, body, options = {}) {
    this.requests++;
    let reply;
    let message;
    try {
      reply = await post(url, body, { ...options, via: this.agent });
      message = reply.text === '' ? undefined : messagesOf(reply).at(-1);
    } catch (error) {
      this.refuse(reply ? `${reply.status} unreadable` : (error.code ?? error.message));
      return undefined;
    }
    if (reply.status < 300 && !message?.error) return { status: reply.status, headers: reply.headers, message };
    this.refuse(message?.error ? `${reply.status} ${message.error.code}` : String(reply.status));
    if (reply.status === 429 || reply.status === 503) this.onLimited?.(reply, message, this.done);
    return undefined;
  }

  /** Counts an answer the flow did not expect (a wrong shape, or a wait that never ended); false, to return. */
  unexpected(what) {
    this.refuse(what);
    return false;
  }

  refuse(label) {
    this.refusals.set(label, (this.refusals.get(label) ?? 0) + 1);
  }
}

/** The sample's `onboard`: a question (input_required with requestState), then the answer, which claims it. */
async function onboard(client, url, who) {
  const asked = await client.send(url, toolCall('onboard', {}, ELICITING));
  if (!asked) return false;
  const { resultType, requestState } = asked.message?.result ?? {};
  if (resultType !== 'input_required' || typeof requestState !== 'string') return client.unexpected(`${asked.status} not input_required`);
  const details = { 'elicitation-1': { action: 'accept', content: { name: who, email: `${who}@example.com` } } };
  const welcomed = await client.send(url, toolCall('onboard', {}, ELICITING, { inputResponses: details, requestState }));
  if (!welcomed) return false;
  return welcomed.message?.result?.structuredContent?.message === `Welcome, ${who}!` || client.unexpected(`${welcomed.status} no welcome`);
}

/** A 2025-11-25 `initialize`; the session id, or undefined. */
async function openSession(client, url) {
  const initialize = { jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'flood-bench', version: '1.0.0' } } };
  const opened = await client.send(url, initialize, { headers: LEGACY_HEADERS });
  if (!opened) return undefined;
  const sessionId = opened.headers['mcp-session-id'];
  if (typeof sessionId !== 'string') client.unexpected(`${opened.status} no session id`);
  return sessionId;
}

const sessionHeaders = (sessionId) => ({ ...LEGACY_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_VERSION });

async function endSession(client, url, sessionId) {
  return (await client.send(url, undefined, { method: 'DELETE', headers: sessionHeaders(sessionId) })) !== undefined;
}

/** Polls tasks/get (pausing `pauseMs` between polls) until the task is `status`; the task, or undefined. */
async function pollTask(client, url, taskId, status, pauseMs) {
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    const reply = await client.send(url, ...taskRequest('tasks/get', { taskId }));
    if (!reply) return undefined;
    const task = reply.message?.result;
    if (task?.status === status) return task;
    if (task?.status !== 'working') {
      client.unexpected(`${reply.status} task ${task?.status}`);
      return undefined;
    }
    await sleep(pauseMs);
  }
  client.unexpected(`task not ${status} after ${MAX_POLLS} polls`);
  return undefined;
}

/** Starts the sample's `quarterly-report` as a task; its id, or undefined. */
async function startReport(client, url, pages) {
  const created = await client.send(url, toolCall('quarterly-report', { pages }, WITH_TASKS));
  if (!created) return undefined;
  const { resultType, taskId } = created.message?.result ?? {};
  if (resultType !== 'task' || typeof taskId !== 'string') {
    client.unexpected(`${created.status} not a task`);
    return undefined;
  }
  return taskId;
}

/** Waits for the report's question and answers it (`confirmed` builds the report, a decline ends it at once). */
async function answerReport(client, url, taskId, confirmed, pauseMs) {
  const asking = await pollTask(client, url, taskId, 'input_required', pauseMs);
  if (!asking) return false;
  const [key] = Object.keys(asking.inputRequests ?? {});
  const answer = confirmed ? { action: 'accept', content: { confirmed: true } } : { action: 'decline' };
  return (await client.send(url, ...taskRequest('tasks/update', { taskId, inputResponses: { [key]: answer } }))) !== undefined;
}

/** What a well-behaved task client does: a one-page report, confirmed, polled to its result. */
async function reportToTheEnd(client, url) {
  const taskId = await startReport(client, url, 1);
  if (!taskId || !(await answerReport(client, url, taskId, true, VICTIM_POLL_MS))) return false;
  const done = await pollTask(client, url, taskId, 'completed', VICTIM_POLL_MS);
  if (!done) return false;
  return done.result?.content?.[0]?.text === 'The 1-page quarterly report is ready.' || client.unexpected('200 wrong report');
}

/**
 * The floods: what the attacker repeats (resolving true per unit of work the server accepted) and what the
 * victim does at its pace. Floods 1 and 3 speak 2026-07-28, flood 2 the 2025-11-25 sessions.
 */
const FLOODS = {
  claims: {
    label: 'claims: `onboard` flows (call, answer with requestState)',
    unit: 'claims',
    victimLabel: '`onboard` flow',
    victimIntervalMs: 250,
    attack: (client, url) => onboard(client, url, 'attacker'),
    victim: (client, url) => onboard(client, url, 'victim'),
  },
  'session-ends': {
    label: 'session ends: 2025 `initialize` + `DELETE`',
    unit: 'sessions ended',
    victimLabel: '`initialize`, `tools/call`, `DELETE`',
    victimIntervalMs: 250,
    attack: async (client, url) => {
      const sessionId = await openSession(client, url);
      return sessionId !== undefined && endSession(client, url, sessionId);
    },
    victim: async (client, url) => {
      const sessionId = await openSession(client, url);
      if (sessionId === undefined) return false;
      const echo = { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'echo', arguments: { message: 'still here' } } };
      const echoed = await client.send(url, echo, { headers: sessionHeaders(sessionId) });
      if (!echoed) return false;
      if (echoed.message?.result?.content?.[0]?.text !== 'still here') return client.unexpected(`${echoed.status} no echo`);
      return endSession(client, url, sessionId);
    },
  },
  tasks: {
    label: 'tasks: `quarterly-report` tasks created, left waiting',
    unit: 'tasks created',
    victimLabel: 'report task, polled to its result',
    victimIntervalMs: 500,
    attack: async (client, url) => (await startReport(client, url, 20)) !== undefined,
    victim: reportToTheEnd,
  },
  'short-tasks': {
    label: 'short tasks: each created, declined, finished',
    unit: 'tasks finished',
    victimLabel: 'report task, polled to its result',
    victimIntervalMs: 500,
    attack: async (client, url) => {
      const taskId = await startReport(client, url, 1);
      return taskId !== undefined && answerReport(client, url, taskId, false, 0);
    },
    victim: reportToTheEnd,
  },
};

/** Children and temporary folders of this run: removed on every way out (Ctrl-C, an error, the watchdog). */
const cleanups = new Set();
function cleanUp() {
  for (const cleanup of cleanups) cleanup();
  cleanups.clear();
}
onEveryExit(cleanUp);

function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The sample's environment: its defaults (no inherited MOCAPI_* settings), the fixed secret, and the store. */
function sampleEnv(redisUrl) {
  const unset = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith('MOCAPI_') || name === 'MCP_HTTP_ADAPTER').map((name) => [name, undefined]));
  return { ...unset, MOCAPI_MRTR_SECRET: SECRET, ...(redisUrl ? { MOCAPI_STORE_REDIS_URL: redisUrl } : {}) };
}

/** Starts `work` every `intervalMs` (at most VICTIM_MAX_IN_FLIGHT at once) while `running()`; `work` never rejects. */
async function steadily(intervalMs, running, work) {
  const inFlight = new Set();
  for (let next = performance.now() + intervalMs; running(); next += intervalMs) {
    if (inFlight.size >= VICTIM_MAX_IN_FLIGHT) await Promise.race(inFlight);
    const one = work().finally(() => inFlight.delete(one));
    inFlight.add(one);
    await sleep(Math.max(0, next - performance.now()));
  }
  await Promise.all(inFlight);
}

/** The app's distinct warnings and errors (what an operator would see), without timestamps, pids and repeat counts. */
function warningsOf(log) {
  const lines = new Set();
  for (const [, level, context, text] of log.matchAll(/\b(WARN|ERROR)\s+\[([^\]]+)\]\s+(.*)$/gm)) {
    lines.add(`${level} [${context}] ${text.replace(/ \(\d+ more [^)]*\)$/, '').trim()}`);
  }
  return [...lines];
}

async function runRow(store, floodName) {
  const flood = FLOODS[floodName];
  const redis = store === 'redis' ? await startRedis() : undefined;
  if (store === 'redis' && !redis) return { store, flood, skipped: 'redis-server not installed (apt-get install -y redis-server)' };
  const home = mkdtempSync(join(os.tmpdir(), 'nest-mcp-flood-'));
  const removeHome = () => rmSync(home, { recursive: true, force: true });
  cleanups.add(removeHome);
  if (redis) {
    cleanups.add(redis.stop);
    await redis.store.close();
  }
  let sample;
  let killSample;
  try {
    // A cwd without a .env: the sample reads its settings from the environment alone.
    sample = await startSample({ cwd: home, env: sampleEnv(redis?.url) });
    killSample = () => sample.child.kill('SIGKILL');
    cleanups.add(killSample);
    const clock = new RowClock();
    sample.child.once('exit', (code, signal) => (clock.failure ??= `the app exited (${code ?? signal}) during the row`));
    const attacker = new Client(ATTACKER_ADDRESS, ATTACK_LOOPS, (reply, message, units) => clock.limited(reply, message, units));
    const victim = new Client(VICTIM_ADDRESS, VICTIM_MAX_IN_FLIGHT);
    const attack = async () => {
      while (clock.running()) if (await flood.attack(attacker, sample.url)) attacker.done++;
    };
    const victimFlow = async () => {
      const whileLimited = clock.firstLimit !== undefined;
      victim.attempts++;
      if (whileLimited) victim.attemptsWhileLimited++;
      if (!(await flood.victim(victim, sample.url))) return;
      victim.done++;
      if (whileLimited) victim.doneWhileLimited++;
    };
    try {
      await Promise.all([...Array.from({ length: ATTACK_LOOPS }, attack), steadily(flood.victimIntervalMs, clock.running, victimFlow)]);
    } finally {
      attacker.agent.destroy();
      victim.agent.destroy();
    }
    const seconds = (performance.now() - clock.started) / 1000;
    if (clock.failure) throw new Error(`${clock.failure}:\n${sample.output()}`);
    return { store, flood, seconds, firstLimit: clock.firstLimit, attacker, victim, warnings: warningsOf(sample.output()) };
  } finally {
    if (sample) await stopChild(sample.child);
    cleanups.delete(killSample);
    redis?.stop();
    cleanups.delete(redis?.stop);
    removeHome();
    cleanups.delete(removeHome);
  }
}

const fmt = (n, digits = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const refusalsOf = (client) =>
  client.refusals.size === 0
    ? 'none'
    : [...client.refusals].sort((a, b) => b[1] - a[1]).map(([label, count]) => `${label} ×${fmt(count)}`).join(' · ');

function rowOf(r) {
  const where = r.store === 'redis' ? 'Redis' : 'in memory';
  if (r.skipped) return `| ${where} | ${r.flood.label} | skipped: ${r.skipped} | | | | |`;
  const limit = r.firstLimit;
  const limited = limit
    ? `**${fmt(limit.ms / 1000, 1)} s**: ${limit.status}${limit.code !== undefined ? ` ${limit.code}` : ''}` +
      `${limit.retryAfter !== undefined ? `, Retry-After ${limit.retryAfter}` : ''} · after ${fmt(limit.units)} ${r.flood.unit} (${fmt(limit.units / (limit.ms / 1000))}/s)`
    : `never (row ran ${fmt(r.seconds)} s)`;
  const attacker = `${fmt(r.attacker.requests)} req in ${fmt(r.seconds, 1)} s · ${fmt(r.attacker.done)} ${r.flood.unit}`;
  const share = r.victim.attempts === 0 ? 0 : (100 * r.victim.done) / r.victim.attempts;
  const whileLimited = limit ? ` · once the attacker was limited: ${fmt(r.victim.doneWhileLimited)} of ${fmt(r.victim.attemptsWhileLimited)}` : '';
  const victim = `**${fmt(share, 1)} %** of ${fmt(r.victim.attempts)} × ${r.flood.victimLabel} (${fmt(r.victim.requests)} req)${whileLimited}`;
  return `| ${where} | ${r.flood.label} | ${limited} | ${attacker} | ${refusalsOf(r.attacker)} | ${victim} | ${refusalsOf(r.victim)} |`;
}

const stores = listOption('store', ['memory', 'redis']);
const floods = listOption('flood', Object.keys(FLOODS));
const runStarted = performance.now();
const loadAtStart = os.loadavg()[0];
// Hard bound on the whole run: each row is bounded, this catches what is not.
const watchdogMs = stores.length * floods.length * (MAX_MS + 60_000);
const watchdog = setTimeout(() => {
  console.error(`flood: watchdog fired after ${fmt(watchdogMs / 1000)} s; stopping`);
  process.exit(2);
}, watchdogMs);
watchdog.unref();

const rows = [];
for (const store of stores) {
  for (const flood of floods) {
    console.error(`· ${store} × ${flood} …`);
    const row = await runRow(store, flood);
    console.error(`  ${rowOf(row)}`);
    rows.push(row);
  }
}

const cpus = os.cpus();
console.log(`\nflood bench: Node ${process.version} · ${cpus.length} × ${cpus[0]?.model ?? 'CPU'} · ${os.platform()} ${os.release()}`);
console.log(
  `attacker ${ATTACKER_ADDRESS} (${ATTACK_LOOPS} loops, keep-alive) · victim ${VICTIM_ADDRESS} · a row ends ${AFTER_MS / 1000} s after the attacker's first 429/503, ` +
    `or at ${MAX_MS / 1000} s · load average (1 min) ${loadAtStart.toFixed(2)} at start, ${os.loadavg()[0].toFixed(2)} at end · run took ${fmt((performance.now() - runStarted) / 1000)} s\n`,
);
console.log('| store | flood (from 127.0.0.1) | attacker first limited | attacker | attacker refusals | victim (127.0.0.2) succeeded | victim refusals |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(rowOf(row));
console.log('\nThe app logged (distinct warnings and errors per row):');
for (const row of rows) {
  if (row.skipped) continue;
  console.log(`- ${row.store} × ${Object.keys(FLOODS).find((name) => FLOODS[name] === row.flood)}: ${row.warnings.length === 0 ? 'nothing' : row.warnings.join(' | ')}`);
}
