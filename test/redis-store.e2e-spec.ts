import type { INestApplication, LoggerService } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisMcpStore } from '../lib/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, post, randomSecret, read, sleep, type McpReply } from './support/interactive-http.js';
import { findBinary, freePort, missingBinary, startNginx, startRedis, type LocalService } from './support/local-services.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';
import { startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';
import { CONFIRM, finalRoundToken, reused } from './support/upgrade-plan.js';

const redisServer = findBinary('redis-server');
const nginx = findBinary('nginx');

/** Keeps the error lines the application logs. */
class ErrorLog implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  error(...parts: unknown[]): void {
    this.errors.push(parts.map(String).join(' | '));
  }
}

describe('RedisMcpStore against a real redis-server (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the Redis store tests');
    return;
  }

  let redis: LocalService & { url: string };
  let store: RedisMcpStore;
  let raw: Redis;

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    store = await RedisMcpStore.connect(redis.url, { keyPrefix: 'test:' });
    raw = new Redis(redis.url);
  });

  afterAll(async () => {
    await store?.close();
    raw?.disconnect();
    await redis?.stop();
  });

  it('claims a key once, under the prefix, with the TTL as PX', async () => {
    const claimed = performance.now();
    expect(await store.claimOnce('request-state:x', 60_000)).toBe(true);
    expect(await store.claimOnce('request-state:x', 60_000)).toBe(false);
    const pttl = await raw.pttl('test:request-state:x');
    // In milliseconds (PX, not EX), counting down from 60 s by at most the time since the claim (+1 ms of rounding),
    // however slow the machine: no bound on how fast this ran.
    expect(pttl).toBeGreaterThanOrEqual(60_000 - Math.ceil(performance.now() - claimed) - 1);
    expect(pttl).toBeLessThanOrEqual(60_000);
  });

  it('has one winner among concurrent claims', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claimOnce('race', 10_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('frees a claim when it expires', async () => {
    expect(await store.claimOnce('short', 50)).toBe(true);
    await sleep(120);
    expect(await store.claimOnce('short', 50)).toBe(true);
  });

  it('stores JSON values with a TTL, and deletes them', async () => {
    await store.set('task:1', { status: 'working', n: [1, 2] }, 10_000);
    expect(await store.get('task:1')).toEqual({ status: 'working', n: [1, 2] });
    expect(await store.claimOnce('task:1', 10_000)).toBe(false);
    await store.delete('task:1');
    await store.delete('task:1');
    expect(await store.get('task:1')).toBeUndefined();
  });

  it('fails at start-up, naming host and port but not the password, when Redis cannot be reached', async () => {
    const port = await freePort();
    await expect(RedisMcpStore.connect(`redis://:s3cret@127.0.0.1:${port}`)).rejects.toThrow(
      new RegExp(`^Could not connect to Redis at redis://127\\.0\\.0\\.1:${port} \\(mocapi\\.store\\.redis-url\\)`),
    );
    await expect(RedisMcpStore.connect(`redis://:s3cret@127.0.0.1:${port}`)).rejects.not.toThrow(/s3cret/);
  });
});

describe('McpModule with mocapi.store.redis-url (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the Redis module tests');
    return;
  }

  let redis: LocalService & { url: string };
  let app: INestApplication;
  let url: string;
  const log = new ErrorLog();

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    ({ app, url } = await startInteractiveApp({ logger: log, config: { mocapi: { store: { 'redis-url': redis.url, 'key-prefix': 'app:' } } } }));
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('claims requestState in Redis: a replay is refused and the charge runs once', async () => {
    const token = await finalRoundToken(url, 'u-redis');
    const done = await callTool(url, 'upgrade-plan', { userId: 'u-redis' }, { extra: { inputResponses: CONFIRM, requestState: token } });
    expect(done.response.result.resultType).toBe('complete');
    reused(await callTool(url, 'upgrade-plan', { userId: 'u-redis' }, { extra: { inputResponses: CONFIRM, requestState: token } }));
    expect(app.get(BillingService).charges).toEqual([{ userId: 'u-redis', plan: 'pro' }]);
    const raw = new Redis(redis.url);
    try {
      expect((await raw.keys('app:request-state:*')).length).toBe(2);
    } finally {
      raw.disconnect();
    }
  });

  it('while Redis is down, a retried round is refused at once with a clear 503 (nothing logged per call) and other calls still work', async () => {
    const token = await finalRoundToken(url, 'u-down');
    await redis.stop();
    const refused = await post(url, 'tools/call', { name: 'upgrade-plan', arguments: { userId: 'u-down' } }, { extra: { inputResponses: CONFIRM, requestState: token } });
    expect(refused.headers.get('retry-after')).toBe('1');
    const reply = await read(refused);
    expect(reply.status).toBe(503);
    expect(reply.response.error).toEqual({
      code: -31503,
      message: "Service Unavailable: the server's store (Redis) is unreachable; retry later",
      data: { retryAfterMs: 1000 },
    });
    const again = await callTool(url, 'upgrade-plan', { userId: 'u-down' }, { extra: { inputResponses: CONFIRM, requestState: token } });
    expect(again.response.error.code).toBe(-31503);
    // A refusal, not a fault: nothing logged per call (the connection logs the outage once, on its own).
    expect(log.errors.filter((line) => line.includes('upgrade-plan') || /\n\s+at /.test(line))).toEqual([]);
    const first = await callTool(url, 'upgrade-plan', { userId: 'u-down' });
    expect(first.response.result.resultType).toBe('input_required');
    expect(app.get(BillingService).charges.filter((charge) => charge.userId === 'u-down')).toEqual([]);
  });
});

describe('two instances behind nginx sharing one Redis (e2e)', () => {
  if (!redisServer || !nginx) {
    missingBinary(redisServer ? 'nginx' : 'redis-server', 'the nginx + Redis replay test');
    return;
  }

  const secret = randomSecret();
  let redis: LocalService & { url: string };
  let proxy: LocalService & { url: string };
  let a: ReliabilityApp;
  let b: ReliabilityApp;

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    const shared = { mrtr: { secret }, store: { redisUrl: redis.url } };
    [a, b] = await Promise.all([startReliabilityApp({ ...shared, instance: 'a' }), startReliabilityApp({ ...shared, instance: 'b' })]);
    proxy = await startNginx(nginx, [a.port, b.port]);
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([a?.app.close(), b?.app.close()]);
    await redis?.stop();
  });

  async function finalRound(token: string): Promise<{ instance: string | null; reply: McpReply }> {
    const response = await post(proxy.url, 'tools/call', { name: 'upgrade-plan', arguments: { userId: 'u-nginx' } }, {
      extra: { inputResponses: CONFIRM, requestState: token },
    });
    return { instance: response.headers.get('x-instance'), reply: await read(response) };
  }

  it('a final round answered on one instance, replayed to the other through nginx, is refused', async () => {
    const token = await finalRoundToken(proxy.url, 'u-nginx');
    const done = await finalRound(token);
    expect(done.reply.response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'pro' } });
    // Round-robin: of two replays, at least one lands on the instance that did not complete the round.
    const replays = [await finalRound(token), await finalRound(token)];
    for (const replay of replays) reused(replay.reply);
    const other = done.instance === 'a' ? 'b' : 'a';
    expect(replays.map((replay) => replay.instance)).toContain(other);
    const charges = [...a.app.get(BillingService).charges, ...b.app.get(BillingService).charges];
    expect(charges).toEqual([{ userId: 'u-nginx', plan: 'pro' }]);
  });
});
