/**
 * Spent stays spent when the store forgets: a store that may have lost records (a Redis restarted
 * without persistence, a restarted process's memory) refuses what was sealed before, and a claim on a
 * Redis with a replica is answered only once the replica holds it.
 */
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisMcpStore, type McpStore } from '../lib/index.js';
import { MCP_STORE } from '../lib/mcp.constants.js';
import { REQUEST_STATE_FORGOTTEN } from '../lib/mrtr/input-rounds.js';
import { ReplicaLagError } from '../lib/store/redis-durability.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, post, randomSecret, read, type McpReply } from './support/interactive-http.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { legacySessionHeaders, openLegacySession, postMcp } from './support/mcp-http.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';
import { CONFIRM, finalRoundToken, reused } from './support/upgrade-plan.js';
import { until } from './support/waiting.js';

const redisServer = findBinary('redis-server');

/** The final round of upgrade-plan (the one that charges) with `token`. */
const finalRound = (url: string, userId: string, token: string) =>
  callTool(url, 'upgrade-plan', { userId }, { extra: { inputResponses: CONFIRM, requestState: token } });

/** Asserts the -32602 of a requestState sealed before the store may have lost its claims. */
function forgotten(reply: McpReply): void {
  expect(reply.status).toBe(200);
  expect(reply.response.result).toBeUndefined();
  expect(reply.response.error).toEqual({ code: -32602, message: REQUEST_STATE_FORGOTTEN });
}

/** A 2025 request of session `sessionId`: its HTTP status (404 and -32001 for an unknown session). */
async function pingStatus(url: string, sessionId: string): Promise<number> {
  const reply = await postMcp(url, { jsonrpc: '2.0', id: 1, method: 'ping', params: {} }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
  if (reply.status === 404) expect(reply.body.error.code).toBe(-32001);
  return reply.status;
}

/** Round 1 and 2 of upgrade-plan, round 3 answered: the spent token. */
async function spentToken(url: string, userId: string): Promise<string> {
  const token = await finalRoundToken(url, userId);
  expect((await finalRound(url, userId, token)).response.result).toMatchObject({ resultType: 'complete' });
  return token;
}

describe('a Redis restarted without persistence (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the restarted Redis tests');
    return;
  }

  let redis: LocalService & { url: string };
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    ({ app, url } = await startInteractiveApp({ mrtr: { secret: randomSecret() }, store: { redisUrl: redis.url } }));
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  /** Stops redis-server and starts an empty one on its port; resolves once the app's store has learned it (over its new connection). */
  async function restartRedis(): Promise<void> {
    const store = app.get<McpStore>(MCP_STORE);
    const before = await store.remembersSince!();
    await redis.stop();
    redis = await startRedis(redisServer!, redis.port);
    await until(async () => (await Promise.resolve(store.remembersSince!()).catch(() => before)) > before, 'the store to learn that Redis restarted');
  }

  it('refuses the rounds spent before the restart (-32602: start over), and an unspent one; a fresh round works once', async () => {
    const charges = app.get(BillingService).charges;
    const users = Array.from({ length: 20 }, (_, i) => `u-spent-${i}`);
    const spent = [];
    for (const userId of users) spent.push(await spentToken(url, userId));
    const unspent = await finalRoundToken(url, 'u-unspent');
    expect(charges.map((charge) => charge.userId)).toEqual(users);

    await restartRedis();

    for (const [i, token] of spent.entries()) forgotten(await finalRound(url, users[i], token));
    forgotten(await finalRound(url, 'u-unspent', unspent));
    expect(charges.map((charge) => charge.userId)).toEqual(users);

    const fresh = await finalRoundToken(url, 'u-fresh');
    expect((await finalRound(url, 'u-fresh', fresh)).response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true } });
    reused(await finalRound(url, 'u-fresh', fresh));
    expect(charges.map((charge) => charge.userId)).toEqual([...users, 'u-fresh']);
  });

  it('answers a 2025 session opened before the restart as unknown (404), an ended one too; a new session works', async () => {
    const live = (await openLegacySession(url)).sessionId;
    const ended = (await openLegacySession(url)).sessionId;
    expect(await pingStatus(url, live)).toBe(200);
    expect((await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': ended } })).status).toBe(200);
    expect(await pingStatus(url, ended)).toBe(404);

    await restartRedis();

    expect(await pingStatus(url, live)).toBe(404);
    expect(await pingStatus(url, ended)).toBe(404);
    const fresh = (await openLegacySession(url)).sessionId;
    expect(await pingStatus(url, fresh)).toBe(200);
  });
});

describe('a restarted process with the in-memory store and the same secret (e2e)', () => {
  const secret = randomSecret();
  let second: { app: INestApplication; url: string } | undefined;

  afterAll(async () => {
    await second?.app.close();
  });

  it("refuses the first process's spent and unspent rounds and answers its 2025 session as unknown; its own rounds and sessions work", async () => {
    const first = await startInteractiveApp({ mrtr: { secret } });
    let spent: string;
    let unspent: string;
    let session: string;
    try {
      spent = await spentToken(first.url, 'u-before');
      unspent = await finalRoundToken(first.url, 'u-pending');
      session = (await openLegacySession(first.url)).sessionId;
      expect(await pingStatus(first.url, session)).toBe(200);
    } finally {
      await first.app.close();
    }

    second = await startInteractiveApp({ mrtr: { secret } });
    const { url } = second;
    forgotten(await finalRound(url, 'u-before', spent));
    forgotten(await finalRound(url, 'u-pending', unspent));
    expect(await pingStatus(url, session)).toBe(404);
    expect(second.app.get(BillingService).charges).toEqual([]);

    const fresh = await finalRoundToken(url, 'u-after');
    expect((await finalRound(url, 'u-after', fresh)).response.result).toMatchObject({ resultType: 'complete' });
    expect(await pingStatus(url, (await openLegacySession(url)).sessionId)).toBe(200);
    expect(second.app.get(BillingService).charges).toEqual([{ userId: 'u-after', plan: 'pro' }]);
  });
});

describe('a Redis master with a replica (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the replica tests');
    return;
  }

  let master: LocalService & { url: string };
  let replica: LocalService & { url: string };
  let masterAdmin: Redis;
  let replicaAdmin: Redis;
  let store: RedisMcpStore;
  let replicaPid: number;

  beforeAll(async () => {
    [master, replica] = await Promise.all([startRedis(redisServer), startRedis(redisServer)]);
    masterAdmin = new Redis(master.url);
    replicaAdmin = new Redis(replica.url);
    await replicaAdmin.replicaof('127.0.0.1', master.port);
    await until(async () => (await masterAdmin.info('replication')).includes('state=online'), 'the replica to be online');
    replicaPid = Number(/^process_id:(\d+)/m.exec(await replicaAdmin.info('server'))![1]);
    store = await RedisMcpStore.connect(master.url, { keyPrefix: 'replicated:' });
  });

  afterAll(async () => {
    await store?.close();
    masterAdmin?.disconnect();
    replicaAdmin?.disconnect();
    await Promise.all([master?.stop(), replica?.stop()]);
  });

  /** Runs `work` with the replica frozen (SIGSTOP): it receives nothing and acknowledges nothing until thawed. */
  async function withReplicaFrozen<T>(work: () => Promise<T>): Promise<T> {
    process.kill(replicaPid, 'SIGSTOP');
    try {
      return await work();
    } finally {
      process.kill(replicaPid, 'SIGCONT');
    }
  }

  it('answers a claim only once the replica holds it', async () => {
    const claim = await withReplicaFrozen(async () => {
      const pending = store.claimOnce('request-state:held', 60_000, { kind: 'claim' });
      // WAIT blocks the claim's connection on the master until the replica acknowledges.
      await until(async () => /^blocked_clients:1\r?$/m.test(await masterAdmin.info('clients')), 'the claim to wait for the replica');
      return { pending };
    });
    expect(await claim.pending).toBe(true);
    expect(await replicaAdmin.get('replicated:request-state:held')).toBe('true');
  });

  it('when the replica does not acknowledge in time: -31503, the claim taken back; the retry is claimed, not "already used"', async () => {
    const refused = await withReplicaFrozen(async () => {
      const error = await store.claimOnce('request-state:late', 60_000, { kind: 'claim' }).catch((caught: unknown) => caught);
      expect(await masterAdmin.exists('replicated:request-state:late')).toBe(0);
      return error;
    });
    expect(refused).toBeInstanceOf(ReplicaLagError);
    expect((refused as ReplicaLagError).toJsonRpc()).toEqual({
      code: -31503,
      message: "Service Unavailable: the server's store (Redis) could not copy the claim to a replica in time; retry later with the same requestState",
      data: { retryAfterMs: 1_000 },
    });
    expect(await store.claimOnce('request-state:late', 60_000, { kind: 'claim' })).toBe(true);
    expect(await replicaAdmin.get('replicated:request-state:late')).toBe('true');
  });

  it('through the module: the final round gets 503 while the replica lags, nothing charged; the same request completes once it is back', async () => {
    const { app, url } = await startInteractiveApp({ mrtr: { secret: randomSecret() }, store: { redisUrl: master.url, keyPrefix: 'app:' } });
    try {
      const token = await finalRoundToken(url, 'u-lag');
      const send = () => post(url, 'tools/call', { name: 'upgrade-plan', arguments: { userId: 'u-lag' } }, { extra: { inputResponses: CONFIRM, requestState: token } });
      const refused = await withReplicaFrozen(send);
      expect(refused.headers.get('retry-after')).toBe('1');
      const reply = await read(refused);
      expect(reply.status).toBe(503);
      expect(reply.response.error).toMatchObject({ code: -31503, message: expect.stringMatching(/could not copy the claim to a replica in time; retry later with the same requestState$/) });
      expect(app.get(BillingService).charges).toEqual([]);
      expect((await read(await send())).response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true } });
      reused(await read(await send()));
      expect(app.get(BillingService).charges).toEqual([{ userId: 'u-lag', plan: 'pro' }]);
    } finally {
      await app.close();
    }
  });

  it('after a failover to the replica, a store on it remembers only since it took over: what was claimed before is not trusted', async () => {
    const sinceBefore = await store.remembersSince();
    expect(await store.claimOnce('request-state:before-failover', 60_000, { kind: 'claim' })).toBe(true);
    const claimedAt = Date.now();
    await replicaAdmin.replicaof('NO', 'ONE');
    const promoted = await RedisMcpStore.connect(replica.url, { keyPrefix: 'replicated:' });
    try {
      // The claim reached the replica before it was answered, and the marker names the old master: it is set anew.
      expect(await replicaAdmin.get('replicated:request-state:before-failover')).toBe('true');
      const since = await promoted.remembersSince();
      expect(since).toBeGreaterThan(sinceBefore);
      expect(since).toBeGreaterThanOrEqual(claimedAt);
    } finally {
      await promoted.close();
    }
  });
});
