import { describe } from '@jest/globals';
import { InMemoryMcpStore, RedisMcpStore } from '../lib/index.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { describeMcpStoreContract } from './support/mcp-store-contract.js';

describeMcpStoreContract('InMemoryMcpStore', { open: async () => new InMemoryMcpStore() });

const redisServer = findBinary('redis-server');
if (redisServer) {
  let redis: LocalService & { url: string };
  describeMcpStoreContract('RedisMcpStore on a real redis-server', {
    open: async () => {
      redis = await startRedis(redisServer);
      return RedisMcpStore.connect(redis.url, { keyPrefix: 'contract:' });
    },
    close: async (store) => {
      await store.close?.();
      await redis.stop();
    },
  });
} else {
  describe('RedisMcpStore contract', () => missingBinary('redis-server', 'the Redis store contract'));
}
