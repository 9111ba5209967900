import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import type { McpStore } from '../store/mcp-store.js';
import { RedisMcpStore } from '../store/redis-mcp-store.js';

/** The configured store: the application's own instance, else Redis when a URL is set, else memory. @internal */
export const mcpStoreProvider: Provider = {
  provide: MCP_STORE,
  inject: [MCP_SETTINGS],
  useFactory: (settings: McpSettings): McpStore | Promise<McpStore> => {
    const { instance, redisUrl, keyPrefix, maxEntries } = settings.store;
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
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.settings.store.instance) await this.store.close?.();
  }
}
