import type { Provider } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import { FairShares, type SharePolicy } from './fair-shares.js';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import type { McpStore } from './mcp-store.js';
import { RedisMcpStore } from './redis-mcp-store.js';
import type { McpStoreBudgets } from './store-limits.js';

/**
 * What the store provider reads of the module's settings (`mocapi.store.*`). Typed here, not taken
 * from config/: config/ reads the module options, which name McpStore, so store/ → config/ would be
 * a folder cycle. `store.provider.spec.ts` keeps it in step with McpSettings.
 * @internal
 */
export interface StoreSettings {
  store: {
    instance: McpStore | undefined;
    redisUrl: string | undefined;
    keyPrefix: string;
    maxEntries: number;
    budgets: McpStoreBudgets;
    shares: SharePolicy;
    redisRequireNoeviction: boolean;
  };
}

/**
 * The configured store: the application's own instance, else Redis when a URL is set, else memory.
 * A Redis store (opened here or passed in) has its `maxmemory-policy` checked at start-up.
 * @internal
 */
export const mcpStoreProvider: Provider = {
  provide: MCP_STORE,
  inject: [MCP_SETTINGS],
  useFactory: async ({ store }: StoreSettings): Promise<McpStore> => {
    const { instance, redisUrl, keyPrefix, maxEntries, budgets, redisRequireNoeviction } = store;
    if (instance) {
      if (instance instanceof RedisMcpStore) await instance.checkEvictionPolicy({ require: redisRequireNoeviction });
      return instance;
    }
    if (!redisUrl) return new InMemoryMcpStore({ maxEntries, budgets });
    const redis = await RedisMcpStore.connect(redisUrl, { keyPrefix, maxEntries, budgets });
    try {
      await redis.checkEvictionPolicy({ require: redisRequireNoeviction });
    } catch (error) {
      await redis.close();
      throw error;
    }
    return redis;
  },
};

/** Every budgeted record's owner and its shares (`mocapi.store.client-share`, `anonymous-share`, `client-ip-header`), said once at start-up. @internal */
export const fairSharesProvider: Provider = {
  provide: FairShares,
  inject: [MCP_SETTINGS],
  useFactory: ({ store }: StoreSettings): FairShares => {
    const shares = new FairShares(store.shares);
    new Logger('McpStore').log(shares.describe());
    return shares;
  },
};
