import 'reflect-metadata';
import { Injectable, type LoggerService } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpModule, McpTool, type McpModuleOptions } from '../lib/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { InteractiveTools } from '../sample/tools/interactive.tools.js';
import { expectRefused, postFrom, requestFrom, type Reply } from './support/from-address.js';
import { onFastify } from './support/http-adapter.js';
import { randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { LEGACY_HEADERS, legacyInitialize, legacySessionHeaders, rpc, startApp, type StartedApp } from './support/mcp-http.js';
import { WITH_TASKS } from './support/tasks-http.js';
import { CONFIRM, PLAN } from './support/upgrade-plan.js';
import { until } from './support/waiting.js';

/**
 * Fair shares of the store over real HTTP: each flood comes at full speed from one address and is
 * stopped at that client's share, while a victim working from another address never notices. A store
 * of 1000 records (claims 500, tasks 250, ended sessions 200) with the default share, 2%: each client
 * holds at most 10 claims, 5 tasks (finished ones included), 4 ended sessions, and runs 2 tasks at once.
 */
const SHARE = { claims: 10, tasks: 5, sessionEnds: 4, running: 2 };
const VICTIM = '127.0.0.2';

/** A task tool that ends at once: its record lives on (ttl) in its client's share. */
@Injectable()
class QuickTasks {
  @McpTool({ name: 'quick-report', description: 'A report, as a task', task: true })
  quickReport(): string {
    return 'done';
  }

  /** Runs until the test opens the gate. */
  @McpTool({ name: 'gated-report', description: 'A report that waits for the test', task: true })
  async gatedReport(): Promise<string> {
    await gate.opened;
    return 'done';
  }
}

/** What the gated tasks wait for. */
function closedGate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
let gate = closedGate();

/** The warnings the app logs. */
class Warnings implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(message: unknown): void {
    this.lines.push(`ERROR ${String(message)}`);
  }
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

const upgrade = (from: string, url: string, userId: string, extra: Record<string, unknown> = {}) =>
  postFrom(from, url, rpc('tools/call', { name: 'upgrade-plan', arguments: { userId }, ...extra }, { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } }));
const newTask = (from: string, url: string, name = 'quick-report') => postFrom(from, url, rpc('tools/call', { name, arguments: {} }, { meta: WITH_TASKS }));
const getTask = (from: string, url: string, taskId: string) => postFrom(from, url, rpc('tasks/get', { taskId }, { meta: WITH_TASKS }), { 'mcp-name': taskId });
const completed = (from: string, url: string, taskId: string) =>
  until(async () => (await getTask(from, url, taskId)).body.result?.status === 'completed', `task ${taskId} to complete`);

/** A 2025 session opened (from anywhere) and ended by DELETE from `from`. */
async function endSessionFrom(from: string, url: string): Promise<{ sessionId: string; deleted: Reply }> {
  const opened = await postFrom(VICTIM, url, legacyInitialize(), LEGACY_HEADERS);
  const sessionId = opened.headers['mcp-session-id'] as string;
  const deleted = await requestFrom(from, url, 'DELETE', { 'mcp-session-id': sessionId });
  return { sessionId, deleted };
}

/** The victim's whole elicitation flow: three rounds, two claims, the plan upgraded. */
async function victimUpgrades(url: string, userId: string): Promise<void> {
  const round1 = await upgrade(VICTIM, url, userId);
  const round2 = await upgrade(VICTIM, url, userId, { inputResponses: PLAN, requestState: round1.body.result.requestState });
  const done = await upgrade(VICTIM, url, userId, { inputResponses: CONFIRM, requestState: round2.body.result.requestState });
  expect(done.body.result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
}

const redisServer = findBinary('redis-server');

describe.each(['memory', 'redis'] as const)(`fair shares of the store (%s), over HTTP (${onFastify ? 'Fastify' : 'Express'})`, (storeKind) => {
  if (storeKind === 'redis' && !redisServer) {
    missingBinary('redis-server', 'fair shares on Redis');
    return;
  }
  let started: StartedApp;
  let redis: LocalService & { url: string };
  const warnings = new Warnings();

  beforeAll(async () => {
    if (storeKind === 'redis') redis = await startRedis(redisServer!);
    const store: McpModuleOptions['store'] = { maxEntries: 1_000, ...(redis ? { redisUrl: redis.url } : {}) };
    started = await startApp(
      [McpModule.forRoot({ name: 'fair-shares', version: '1.0.0', mrtr: { secret: randomSecret() }, store, tasks: { maxPerClient: SHARE.running } })],
      '/mcp',
      [InteractiveTools, BillingService, QuickTasks],
      warnings,
    );
  });

  afterAll(async () => {
    gate.open();
    await started?.app.close();
    await redis?.stop();
  });

  it("a flood of rounds from one address stops at that client's share (429, a Retry-After its token outlives); another client's rounds go on", async () => {
    const url = started.url;
    const attacker = '127.0.0.3';
    const tokens = await Promise.all(Array.from({ length: SHARE.claims + 5 }, async (_, i) => (await upgrade(attacker, url, `flood-${i}`)).body.result.requestState as string));
    const outcomes = await Promise.all(tokens.map((token, i) => upgrade(attacker, url, `flood-${i}`, { inputResponses: PLAN, requestState: token })));
    const accepted = outcomes.filter((reply) => reply.body.result?.resultType === 'input_required');
    const limited = outcomes.filter((reply) => reply.status === 429);
    expect({ accepted: accepted.length, limited: limited.length }).toEqual({ accepted: SHARE.claims, limited: 5 });
    for (const reply of limited) {
      expectRefused(reply, 429, -31429, /^Too Many Requests: this client holds 10 live requestState claims, its share; retry when one expires$/);
      // Retrying later with the same requestState can work: never asked to wait past its life (mocapi.mrtr.ttl, 5 min).
      expect(reply.body.error.data.retryAfterMs).toBeLessThanOrEqual(300_000);
    }
    // The victim, from another address, is not affected, during the flood and after it.
    await Promise.all([victimUpgrades(url, 'victim-1'), upgrade(attacker, url, 'flood-more', { inputResponses: PLAN, requestState: tokens[0] })]);
    await victimUpgrades(url, 'victim-2');
    expect(warnings.lines).toContainEqual(expect.stringMatching(/^A client holds 10 live requestState claims, its share: .*other clients are not affected/));
  });

  it("initialize + DELETE pairs from one address stop at its share of ended sessions (its session lives on); another client's DELETE is 200", async () => {
    const url = started.url;
    const attacker = '127.0.0.4';
    for (let i = 0; i < SHARE.sessionEnds; i++) expect((await endSessionFrom(attacker, url)).deleted.status).toBe(200);
    const { sessionId, deleted } = await endSessionFrom(attacker, url);
    expectRefused(deleted, 429, -31429, /^Too Many Requests: this client holds 4 live ended sessions, its share; retry when one expires$/);
    // A session lives a day (mocapi.session.ttl): the wait is never longer.
    expect(deleted.body.error.data.retryAfterMs).toBeLessThanOrEqual(24 * 3600 * 1000);
    const ping = await postFrom(attacker, url, { jsonrpc: '2.0', id: 1, method: 'ping' }, legacySessionHeaders(sessionId));
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

    const victim = await endSessionFrom(VICTIM, url);
    expect(victim.deleted.status).toBe(200);
    const gone = await postFrom(VICTIM, url, { jsonrpc: '2.0', id: 1, method: 'ping' }, legacySessionHeaders(victim.sessionId));
    expect(gone.status).toBe(404);
  });

  it('a finished task no longer counts as running: a client runs more short tasks than max-per-client, up to its share of stored ones', async () => {
    const url = started.url;
    const attacker = '127.0.0.5';
    for (let i = 0; i < SHARE.tasks; i++) {
      const created = await newTask(attacker, url);
      expect(created.status).toBe(200);
      await completed(attacker, url, created.body.result.taskId);
    }
    // Its sixth stored task is past its share (they stay readable for mocapi.tasks.ttl, an hour).
    const over = await newTask(attacker, url);
    expectRefused(over, 429, -31429, /^Too Many Requests: this client holds 5 live tasks, its share; retry when one expires$/);
    expect(over.body.error.data.retryAfterMs).toBeLessThanOrEqual(3600 * 1000);
    const other = await newTask(VICTIM, url);
    expect(other.status).toBe(200);
    await completed(VICTIM, url, other.body.result.taskId);
  });

  it('a client runs at most max-per-client tasks at once; room again as soon as one finishes', async () => {
    const url = started.url;
    const client = '127.0.0.6';
    gate = closedGate();
    const running = [await newTask(client, url, 'gated-report'), await newTask(client, url, 'gated-report')];
    for (const reply of running) expect(reply.body.result.status).toBe('working');
    const third = await newTask(client, url, 'gated-report');
    expectRefused(third, 429, -31429, /^Too Many Requests: this client holds 2 live tasks, its share; retry when one expires$/);
    gate.open();
    for (const reply of running) await completed(client, url, reply.body.result.taskId);
    const next = await newTask(client, url, 'quick-report');
    expect(next.status).toBe(200);
    expect(warnings.lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
  });
});
