import { describe, expect, it } from '@jest/globals';
import type { FactoryProvider } from '@nestjs/common';
import { resolveMcpSettings, type McpSettings } from '../config/mcp-settings.js';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import type { McpStore } from './mcp-store.js';
import { mcpStoreProvider, type StoreSettings } from './store.provider.js';

/** The provider's factory, given the settings as config/ resolves them (`satisfies`: StoreSettings stays in step). */
function open(settings: McpSettings): McpStore | Promise<McpStore> {
  return (mcpStoreProvider as FactoryProvider<McpStore>).useFactory(settings satisfies StoreSettings);
}

describe('mcpStoreProvider', () => {
  it("takes the application's own store as it is", async () => {
    const instance = new InMemoryMcpStore();
    expect(await open(resolveMcpSettings({ store: { instance } }))).toBe(instance);
  });

  it('keeps requestState claims and task records in memory when no store and no Redis URL is set', async () => {
    expect(await open(resolveMcpSettings())).toBeInstanceOf(InMemoryMcpStore);
  });
});
