import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import type { McpStore } from '../store/mcp-store.js';
import type { StoreSettings } from '../store/store.provider.js';
import { InMemoryMcpBus } from './in-memory-mcp-bus.js';
import type { McpBus } from './mcp-bus.js';
import { RedisMcpBus } from './redis-mcp-bus.js';

/** The injection token of the module's `McpBus`. @internal */
export const MCP_BUS = Symbol('MCP_BUS');

/**
 * What the bus provider reads of the module's settings (as StoreSettings: typed here, since config/
 * cannot be imported from this tier). `bus.provider.spec.ts` keeps it in step with McpSettings.
 * @internal
 */
export interface BusSettings {
  store: { bus: McpBus | undefined; redisUrl: string | undefined; keyPrefix: string };
}

/**
 * The configured bus: the application's own, else Redis pub/sub when `mocapi.store.redis-url` is set
 * (the store's Redis, its own two connections), else this process alone. Made after the store, so a
 * store that refuses to start (say `redis-require-noeviction`) leaves no bus connection open; a bus
 * that cannot connect closes the store the module opened.
 * @internal
 */
export const mcpBusProvider: Provider = {
  provide: MCP_BUS,
  inject: [MCP_SETTINGS, MCP_STORE],
  useFactory: async ({ store: settings }: BusSettings & StoreSettings, store: McpStore): Promise<McpBus> => {
    if (settings.bus) return settings.bus;
    if (!settings.redisUrl) return new InMemoryMcpBus();
    try {
      return await RedisMcpBus.connect(settings.redisUrl, { keyPrefix: settings.keyPrefix });
    } catch (error) {
      if (!settings.instance) await store.close?.();
      throw error;
    }
  },
};

/**
 * Closes the bus and the store the module opened (not those the application passed in). At
 * application shutdown, after the transport has let the calls in flight finish, since they may
 * still claim requestState or answer a question held elsewhere.
 * @internal
 */
@Injectable()
export class McpConnectionsCloser implements OnApplicationShutdown {
  constructor(
    @Inject(MCP_BUS) private readonly bus: McpBus,
    @Inject(MCP_STORE) private readonly store: McpStore,
    @Inject(MCP_SETTINGS) private readonly settings: BusSettings & StoreSettings,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.settings.store.bus) await this.bus.close?.();
    if (!this.settings.store.instance) await this.store.close?.();
  }
}
