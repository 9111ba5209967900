import { Logger } from '@nestjs/common';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { InMemoryMcpStore, McpModule, RedisMcpStore, StoreFullError } from '../lib/index.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { startupFailure } from './support/mcp-http.js';
import { describeMcpStoreContract, floodFigures } from './support/mcp-store-contract.js';

afterAll(() => {
  // The figures of the flood test (records each kind took before the store refused, refusals, time).
  for (const figures of floodFigures) console.log(`flood ${JSON.stringify(figures)}`);
});

describeMcpStoreContract('InMemoryMcpStore', { open: async (limits) => new InMemoryMcpStore(limits) });

const redisServer = findBinary('redis-server');
if (redisServer) {
  let redis: LocalService & { url: string };
  let prefixes = 0;
  describeMcpStoreContract('RedisMcpStore on a real redis-server', {
    open: async (limits) => {
      redis ??= await startRedis(redisServer);
      // A bounded store counts its budgets under its own prefix.
      return RedisMcpStore.connect(redis.url, { keyPrefix: limits ? `contract-${++prefixes}:` : 'contract:', ...limits });
    },
    close: async (store) => {
      await store.close?.();
    },
  });

  describe('RedisMcpStore: what Redis itself does when full', () => {
    let admin: Redis;
    let store: RedisMcpStore;
    const warnings: string[] = [];

    beforeAll(async () => {
      redis ??= await startRedis(redisServer);
      admin = new Redis(redis.url);
      store = await RedisMcpStore.connect(redis.url, { keyPrefix: 'memory:' });
    }, 20_000);
    afterEach(async () => {
      jest.restoreAllMocks();
      warnings.length = 0;
      await admin.config('SET', 'maxmemory', '0');
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
    });
    afterAll(async () => {
      await store?.close();
      await admin?.quit();
      await redis?.stop();
    });

    const captureWarnings = () => jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));

    it('answers Redis out of memory (-OOM under noeviction) as a full store: -31503, nothing lost, a spent claim still spent', async () => {
      expect(await store.claimOnce('request-state:spent', 60_000, { kind: 'claim' })).toBe(true);
      await store.set('session-ended:s1', true, 60_000, { kind: 'session-end' });
      captureWarnings();
      // Less memory than Redis already uses: every write is refused from now on.
      await admin.config('SET', 'maxmemory', '1');
      const refused = await store.claimOnce('request-state:fresh', 60_000, { kind: 'claim' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StoreFullError);
      expect((refused as StoreFullError).toJsonRpc()).toEqual({
        code: -31503,
        message: "Service Unavailable: the server's store is full (requestState claims); retry later with the same requestState",
        data: { retryAfterMs: 1_000 },
      });
      await expect(store.create('task:t1', {}, 60_000, { kind: 'task' })).rejects.toThrow(StoreFullError);
      await expect(store.compareAndSet('session-ended:s1', true, false, 60_000)).rejects.toThrow(StoreFullError);
      expect(await store.claimOnce('request-state:spent', 60_000, { kind: 'claim' })).toBe(false);
      expect(await store.get('session-ended:s1')).toBe(true);
      expect(warnings).toEqual([expect.stringMatching(/^Redis refused a write for lack of memory \(Redis at redis:\/\/127\.0\.0\.1:\d+\): new work that needs a record is refused with -31503/)]);
      await admin.config('SET', 'maxmemory', '0');
      expect(await store.claimOnce('request-state:fresh', 60_000, { kind: 'claim' })).toBe(true);
    });

    it('warns loudly at start-up when maxmemory-policy is not noeviction, and refuses to start when asked to', async () => {
      await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
      captureWarnings();
      await store.checkEvictionPolicy();
      expect(warnings).toEqual([
        expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ has maxmemory-policy volatile-lru\. It must be noeviction: every nest-mcp record has a TTL.*refuses to start instead of this warning\.$/),
      ]);
      await expect(store.checkEvictionPolicy({ require: true })).rejects.toThrow(
        /has maxmemory-policy volatile-lru\. It must be noeviction.*\(mocapi\.store\.redis-require-noeviction is on, so the application does not start\.\)$/,
      );
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      warnings.length = 0;
      await store.checkEvictionPolicy({ require: true });
      expect(warnings).toEqual([]);
    });

    it('through McpModule: mocapi.store.redis-require-noeviction refuses to start on a volatile-lru Redis', async () => {
      await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
      const failure = await startupFailure([McpModule.forRoot({ store: { redisUrl: redis.url, redisRequireNoeviction: true } })]);
      expect(failure.message).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ has maxmemory-policy volatile-lru\. It must be noeviction/);
    });

    it('says so when the policy cannot be read (CONFIG refused, as on managed Redis)', async () => {
      await admin.call('ACL', 'SETUSER', 'limited', 'on', '>secret', '~*', '+@all', '-config');
      const url = new URL(redis.url);
      url.username = 'limited';
      url.password = 'secret';
      const limited = await RedisMcpStore.connect(url.toString(), { keyPrefix: 'limited:' });
      try {
        captureWarnings();
        await limited.checkEvictionPolicy();
        expect(warnings).toEqual([expect.stringMatching(/^The maxmemory-policy of Redis at redis:\/\/127\.0\.0\.1:\d+ could not be checked \(NOPERM.*\)\. It must be noeviction/)]);
        // The password never reaches the log.
        expect(warnings.join('')).not.toContain('secret');
        await expect(limited.checkEvictionPolicy({ require: true })).rejects.toThrow(/could not be checked/);
      } finally {
        await limited.close();
      }
    });
  });
} else {
  describe('RedisMcpStore contract', () => missingBinary('redis-server', 'the Redis store contract'));
}
