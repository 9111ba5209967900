import { describe, expect, it } from '@jest/globals';
import type { FactoryProvider } from '@nestjs/common';
import { resolveMcpSettings, type McpSettings } from '../config/mcp-settings.js';
import { mcpBusProvider, type BusSettings } from './bus.provider.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import { InMemoryMcpBus } from './in-memory-mcp-bus.js';
import type { McpBus } from './mcp-bus.js';

/** The provider's factory, given the settings as config/ resolves them (`satisfies`: BusSettings stays in step). */
function open(settings: McpSettings): McpBus | Promise<McpBus> {
  return (mcpBusProvider as FactoryProvider<McpBus>).useFactory(settings satisfies BusSettings, new InMemoryMcpStore());
}

describe('mcpBusProvider', () => {
  it("takes the application's own bus as it is", async () => {
    const bus = new InMemoryMcpBus();
    expect(await open(resolveMcpSettings({ store: { bus } }))).toBe(bus);
  });

  it('stays in this process when no bus and no Redis URL is set', async () => {
    expect(await open(resolveMcpSettings())).toBeInstanceOf(InMemoryMcpBus);
  });
});
