import 'reflect-metadata';
import { Injectable, type LoggerService } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpModule, McpTool } from '../lib/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { InteractiveTools } from '../sample/tools/interactive.tools.js';
import { onFastify } from './support/http-adapter.js';
import { randomSecret } from './support/interactive-http.js';
import { expectRefused, postFrom, type Reply } from './support/from-address.js';
import { legacySessionHeaders, openLegacySession, postMcp, rpc, startApp, type StartedApp } from './support/mcp-http.js';
import { WITH_TASKS } from './support/tasks-http.js';
import { CONFIRM, PLAN, REUSED } from './support/upgrade-plan.js';

/**
 * A small `mocapi.store.max-entries` (60: claims 30, tasks 15, ended sessions 12) with each client's
 * share the whole budget (`clientShare: 1`), so that one client can fill it: what a full store does.
 * (Fair shares, the default, keep one client from doing so: fair-shares.e2e-spec.ts.) Clients are
 * told apart as the module tells them apart without auth, by the address they connect from.
 */
const MAX_ENTRIES = 60;
const CLAIMS = 30;
const SESSION_ENDS = 12;
const TASKS_PER_CLIENT = 3;

/** A task tool that ends at once: its record lives on (ttl) and counts against its client. */
@Injectable()
class QuickTasks {
  @McpTool({ name: 'quick-report', description: 'A report, as a task', task: true })
  quickReport(): string {
    return 'done';
  }
}

/** The warnings the app logs. */
class Warnings implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

const upgrade = (from: string, url: string, userId: string, extra: Record<string, unknown> = {}) =>
  postFrom(from, url, rpc('tools/call', { name: 'upgrade-plan', arguments: { userId }, ...extra }, { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } }));
const newTask = (from: string, url: string) => postFrom(from, url, rpc('tools/call', { name: 'quick-report', arguments: {} }, { meta: WITH_TASKS }));
const getTask = (from: string, url: string, taskId: string) =>
  postFrom(from, url, rpc('tasks/get', { taskId }, { meta: WITH_TASKS }), { 'mcp-name': taskId });

describe(`a flooded store fails closed, over HTTP (${onFastify ? 'Fastify' : 'Express'})`, () => {
  let started: StartedApp;
  let billing: BillingService;
  const warnings = new Warnings();

  beforeAll(async () => {
    started = await startApp(
      [McpModule.forRoot({ name: 'store-budgets', version: '1.0.0', mrtr: { secret: randomSecret() }, store: { maxEntries: MAX_ENTRIES, clientShare: 1 }, tasks: { maxPerClient: TASKS_PER_CLIENT } })],
      '/mcp',
      [InteractiveTools, BillingService, QuickTasks],
      warnings,
    );
    billing = started.app.get(BillingService);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('after a flood of rounds past the claims budget, a spent final round is refused as spent, another client keeps its task, new rounds get 503', async () => {
    const url = started.url;
    // Another client's live task, before the flood.
    const created = await newTask('127.0.0.2', url);
    expect(created.status).toBe(200);
    const taskId: string = created.body.result.taskId;

    // The victim's flow: three rounds, the last one charges (two claims).
    const round1 = await upgrade('127.0.0.1', url, 'victim');
    const round2 = await upgrade('127.0.0.1', url, 'victim', { inputResponses: PLAN, requestState: round1.body.result.requestState });
    const spent: string = round2.body.result.requestState;
    const done = await upgrade('127.0.0.1', url, 'victim', { inputResponses: CONFIRM, requestState: spent });
    expect(done.body.result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });

    // One client floods past max-entries (what used to evict the oldest claims, the victim's first):
    // first rounds cost nothing; each retried round claims its requestState.
    const tokens: string[] = [];
    for (let i = 0; i < MAX_ENTRIES + 10; i++) tokens.push((await upgrade('127.0.0.3', url, `flood-${i}`)).body.result.requestState);
    const outcomes: Reply[] = [];
    for (const [i, token] of tokens.entries()) outcomes.push(await upgrade('127.0.0.3', url, `flood-${i}`, { inputResponses: PLAN, requestState: token }));
    const accepted = outcomes.filter((reply) => reply.body.result?.resultType === 'input_required');
    const refused = outcomes.filter((reply) => reply.status === 503);
    // The victim's two claims and the flood's fill the budget; the rest of the flood is refused.
    expect(accepted).toHaveLength(CLAIMS - 2);
    expect(refused).toHaveLength(tokens.length - (CLAIMS - 2));
    for (const reply of refused) {
      expectRefused(reply, 503, -31503, /^Service Unavailable: the server's store is full \(requestState claims\); retry later with the same requestState$/);
    }

    // The spent final round is still spent: refused as used, not run again, not charged again.
    const replay = await upgrade('127.0.0.1', url, 'victim', { inputResponses: CONFIRM, requestState: spent });
    expect({ status: replay.status, code: replay.body.error?.code }).toEqual({ status: 200, code: -32602 });
    expect(replay.body.error.message).toMatch(REUSED);
    expect(billing.charges).toEqual([{ userId: 'victim', plan: 'pro' }]);

    // The other client's task is still there, and what needs no record still works.
    const task = await getTask('127.0.0.2', url, taskId);
    expect(task.body.result).toMatchObject({ taskId, status: 'completed' });
    expect((await upgrade('127.0.0.4', url, 'newcomer')).body.result.resultType).toBe('input_required');

    // One warning for the many refusals (rate-limited), naming the budget, not the client.
    const full = warnings.lines.filter((line) => line.startsWith('The MCP store is full of live requestState claims (30, mocapi.store.max-claims)'));
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(full.length).toBeLessThan(refused.length);
  });

  it('with the ended-sessions budget full, DELETE is 503 (the session lives on, retry later) and every ended session stays ended', async () => {
    const url = started.url;
    const ended: string[] = [];
    for (let i = 0; i < SESSION_ENDS; i++) {
      const { sessionId } = await openLegacySession(url);
      expect((await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } })).status).toBe(200);
      ended.push(sessionId);
    }
    const { sessionId } = await openLegacySession(url);
    const refused = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    const body = await refused.json();
    expectRefused({ status: refused.status, headers: { 'retry-after': refused.headers.get('retry-after') ?? undefined }, body }, 503, -31503, /\(ended sessions\); retry later: the session is not ended yet$/);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await postMcp(url, ping, { headers: legacySessionHeaders(sessionId), skipSchema: true })).body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    for (const id of ended) expect((await postMcp(url, ping, { headers: legacySessionHeaders(id), skipSchema: true })).status).toBe(404);
  });
});
