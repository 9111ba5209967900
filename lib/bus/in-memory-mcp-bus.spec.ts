import { describe, expect, it } from '@jest/globals';
import type { JsonValue } from '../protocol/wire.types.js';
import { InMemoryMcpBus } from './in-memory-mcp-bus.js';

describe('InMemoryMcpBus', () => {
  it('hands each message to every subscription of its topic once, never inside publish, and counts them', async () => {
    const bus = new InMemoryMcpBus();
    const seen: [string, JsonValue][] = [];
    await bus.subscribe('t', (message) => seen.push(['one', message]));
    await bus.subscribe('t', (message) => seen.push(['two', message]));
    await bus.subscribe('other', (message) => seen.push(['other', message]));
    const delivered = new Promise<void>((resolve) => void bus.subscribe('t', () => resolve()));
    const published = bus.publish('t', { n: 1 });
    expect(seen).toEqual([]);
    expect(await published).toBe(3);
    await delivered;
    expect(seen).toEqual([
      ['one', { n: 1 }],
      ['two', { n: 1 }],
    ]);
  });

  it('gives each handler its own copy, keeps delivering past a failing handler, and stops at unsubscribe', async () => {
    const bus = new InMemoryMcpBus();
    const copies: JsonValue[] = [];
    await bus.subscribe('t', (message) => {
      (message as { n: number }).n = 99;
      throw new Error('a handler that fails');
    });
    const stop = await bus.subscribe('t', (message) => copies.push(message));
    await bus.publish('t', { n: 1 });
    await Promise.resolve();
    expect(copies).toEqual([{ n: 1 }]);
    await stop();
    expect(await bus.publish('t', { n: 2 })).toBe(1);
    await Promise.resolve();
    expect(copies).toEqual([{ n: 1 }]);
    expect(await bus.publish('nobody', {})).toBe(0);
  });
});
