import { describe, expect, it } from '@jest/globals';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import { IOREDIS_MISSING, loadIoredis } from './ioredis-loader.js';

function setup(maxEntries?: number) {
  const clock = { now: 1_750_000_000_000 };
  const store = new InMemoryMcpStore({ maxEntries, clock: () => clock.now });
  return { clock, store };
}

describe('InMemoryMcpStore', () => {
  it('claims a key once; concurrent claims have one winner', async () => {
    const { store } = setup();
    expect(await store.claimOnce('a', 1_000)).toBe(true);
    expect(await store.claimOnce('a', 1_000)).toBe(false);
    const results = await Promise.all(Array.from({ length: 10 }, () => store.claimOnce('b', 1_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('frees a claim when it expires, not before', async () => {
    const { store, clock } = setup();
    await store.claimOnce('a', 1_000);
    clock.now += 999;
    expect(await store.claimOnce('a', 1_000)).toBe(false);
    clock.now += 1;
    expect(await store.claimOnce('a', 1_000)).toBe(true);
  });

  it('stores JSON values by copy until they expire; delete removes them', async () => {
    const { store, clock } = setup();
    const value = { status: 'working', ledger: [1, 2] };
    await store.set('task:1', value, 500);
    value.ledger.push(3);
    const read = await store.get<{ status: string; ledger: number[] }>('task:1');
    expect(read).toEqual({ status: 'working', ledger: [1, 2] });
    read!.ledger.push(4);
    expect(await store.get('task:1')).toEqual({ status: 'working', ledger: [1, 2] });
    expect(await store.claimOnce('task:1', 500)).toBe(false);
    await store.delete('task:1');
    await store.delete('task:1');
    expect(await store.get('task:1')).toBeUndefined();
    await store.set('task:2', 'x', 500);
    clock.now += 500;
    expect(await store.get('task:2')).toBeUndefined();
    expect(store.size).toBe(0); // reading an expired entry removes it
  });

  it('stays within maxEntries: expired entries give way first, then the oldest write', async () => {
    const { store, clock } = setup(3);
    await store.claimOnce('short', 100);
    await store.claimOnce('old', 10_000);
    await store.claimOnce('newer', 10_000);
    clock.now += 100;
    // Full: the expired claim goes, the live ones stay.
    await store.claimOnce('fourth', 10_000);
    expect(store.size).toBe(3);
    expect(await store.claimOnce('old', 10_000)).toBe(false);
    // Full of live claims: the oldest write gives way.
    await store.claimOnce('fifth', 10_000);
    expect(store.size).toBe(3);
    expect(await store.claimOnce('newer', 10_000)).toBe(false);
    expect(await store.claimOnce('fifth', 10_000)).toBe(false);
  });

  it('refuses a non-positive TTL and a bad maxEntries', async () => {
    const { store } = setup();
    await expect(store.claimOnce('a', 0)).rejects.toThrow('positive number of milliseconds');
    await expect(store.set('a', 1, Number.NaN)).rejects.toThrow('positive number of milliseconds');
    expect(() => new InMemoryMcpStore({ maxEntries: 0 })).toThrow('maxEntries must be a positive integer');
  });
});

describe('loadIoredis', () => {
  it('names the missing optional package', async () => {
    const missing = Object.assign(new Error("Cannot find package 'ioredis'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadIoredis(() => Promise.reject(missing))).rejects.toThrow(IOREDIS_MISSING);
  });

  it('loads the installed package', async () => {
    expect(typeof (await loadIoredis()).Redis).toBe('function');
  });
});
