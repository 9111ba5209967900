import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import type { McpStore } from './mcp-store.js';
import { RedisMcpStore } from './redis-mcp-store.js';

/**
 * What the store provider reads of the module's settings (`mocapi.store.*`). Typed here, not taken
 * from config/: config/ reads the module options, which name McpStore, so store/ → config/ would be
 * a folder cycle. `store.provider.spec.ts` keeps it in step with McpSettings.
 * @internal
 */
export interface StoreSettings {
  store: { instance: McpStore | undefined; redisUrl: string | undefined; keyPrefix: string; maxEntries: number };
}

/** The configured store: the application's own instance, else Redis when a URL is set, else memory. @internal */
export const mcpStoreProvider: Provider = {
  provide: MCP_STORE,
  inject: [MCP_SETTINGS],
  useFactory: ({ store }: StoreSettings): McpStore | Promise<McpStore> => {
    const { instance, redisUrl, keyPrefix, maxEntries } = store;
    if (instance) return instance;
    if (redisUrl) return RedisMcpStore.connect(redisUrl, { keyPrefix });
    return new InMemoryMcpStore({ maxEntries });
  },
};

/**
 * Closes the store the module opened (not one the application passed in). At application shutdown,
 * after the transport has let the calls in flight finish, since they may still claim requestState.
 * @internal
 */
@Injectable()
export class McpStoreCloser implements OnApplicationShutdown {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpStore,
    @Inject(MCP_SETTINGS) private readonly settings: StoreSettings,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.settings.store.instance) await this.store.close?.();
  }
}
