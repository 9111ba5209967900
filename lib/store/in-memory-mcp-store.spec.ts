import { describe, expect, it } from '@jest/globals';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import { ClientLimitError, StoreFullError } from './store-limits.js';

const CLAIM = { kind: 'claim' as const };
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

  it('never drops a live entry: a full budget refuses the new one until an entry expires', async () => {
    const { store, clock } = setup(10);
    // Ten entries: claims get half of them.
    await store.claimOnce('short', 100, CLAIM);
    for (const key of ['b', 'c', 'd', 'e']) await store.claimOnce(key, 10_000, CLAIM);
    const full = await store.claimOnce('f', 10_000, CLAIM).catch((error: unknown) => error);
    expect(full).toBeInstanceOf(StoreFullError);
    expect((full as StoreFullError).toJsonRpc()).toEqual({
      code: -31503,
      message: "Service Unavailable: the server's store is full (requestState claims); retry later with the same requestState",
      data: { retryAfterMs: 100 },
    });
    // Every claim is still held, the refused one was not written.
    for (const key of ['short', 'b', 'c', 'd', 'e']) expect(await store.claimOnce(key, 10_000, CLAIM)).toBe(false);
    expect(await store.get('f')).toBeUndefined();
    clock.now += 100;
    expect(await store.claimOnce('f', 10_000, CLAIM)).toBe(true);
    expect(store.size).toBe(5);
  });

  it('keeps a budget per kind: a flood of one kind leaves the others their room', async () => {
    const { store } = setup(20);
    for (let i = 0; i < 10; i++) await store.claimOnce(`claim-${i}`, 10_000, CLAIM);
    await expect(store.claimOnce('claim-10', 10_000, CLAIM)).rejects.toThrow(StoreFullError);
    expect(await store.create('task:1', { status: 'working' }, 10_000, { kind: 'task' })).toBe(true);
    await store.set('session-ended:1', true, 10_000, { kind: 'session-end' });
    for (let i = 2; i <= 5; i++) await store.create(`task:${i}`, {}, 10_000, { kind: 'task' });
    const tasksFull = await store.create('task:6', {}, 10_000, { kind: 'task' }).catch((error: unknown) => error);
    expect((tasksFull as StoreFullError).message).toBe("Service Unavailable: the server's store is full (tasks); retry later");
    // Replacing an existing record needs no room; creating it again is false, full or not.
    await store.set('session-ended:1', true, 20_000, { kind: 'session-end' });
    expect(await store.create('task:1', {}, 10_000, { kind: 'task' })).toBe(false);
    expect(await store.claimOnce('claim-0', 10_000, CLAIM)).toBe(false);
  });

  it("caps a client's live records of a kind: that client is refused, the others are not", async () => {
    const { store, clock } = setup();
    const alice = { kind: 'task' as const, limits: [{ id: 'alice', limit: 2 }] };
    await store.create('task:a1', {}, 1_000, alice);
    clock.now += 10;
    await store.create('task:a2', {}, 1_000, alice);
    const over = await store.create('task:a3', {}, 1_000, alice).catch((error: unknown) => error);
    expect(over).toBeInstanceOf(ClientLimitError);
    expect((over as ClientLimitError).httpStatus).toBe(429);
    expect((over as ClientLimitError).toJsonRpc()).toEqual({
      code: -31429,
      message: 'Too Many Requests: this client holds 2 live tasks, its share; retry when one expires',
      data: { limit: 2, retryAfterMs: 990 },
    });
    expect(await store.create('task:b1', {}, 1_000, { kind: 'task', limits: [{ id: 'bob', limit: 2 }] })).toBe(true);
    // Room again once one of alice's records is deleted, or expires.
    await store.delete('task:a1');
    expect(await store.create('task:a3', {}, 1_000, alice)).toBe(true);
    await expect(store.create('task:a4', {}, 1_000, alice)).rejects.toThrow(ClientLimitError);
    clock.now += 1_000;
    expect(await store.create('task:a4', {}, 1_000, alice)).toBe(true);
  });

  it("never asks a client to retry after the refused record would have expired", async () => {
    const { store, clock } = setup();
    const alice = { kind: 'claim' as const, limits: [{ id: 'alice', limit: 1 }] };
    await store.claimOnce('claim-a1', 300_000, alice);
    clock.now += 100_000;
    // Her next token lives 5 s more: a wait until her first claim expires (200 s) would be pointless.
    const over = (await store.claimOnce('claim-a2', 5_000, alice).catch((error: unknown) => error)) as ClientLimitError;
    expect(over.retryAfterMs).toBe(5_000);
  });

  it('counts a record against every limit of its scope: the first full one refuses it', async () => {
    const { store } = setup();
    const both = { kind: 'task' as const, limits: [{ id: 'alice', limit: 5 }, { id: 'running:alice', limit: 1 }] };
    await store.create('task:x1', {}, 1_000, both);
    const refused = await store.create('task:x2', {}, 1_000, both).catch((error: unknown) => error);
    expect((refused as ClientLimitError).limit).toBe(1);
    expect(await store.create('task:x3', {}, 1_000, { kind: 'task', limits: [{ id: 'alice', limit: 5 }] })).toBe(true);
  });

  it('releases a record from a limit and keeps it, counted in its kind', async () => {
    const { store } = setup();
    const running = { kind: 'task' as const, limits: [{ id: 'running:alice', limit: 1 }] };
    await store.create('task:r1', { status: 'working' }, 1_000, running);
    await expect(store.create('task:r2', {}, 1_000, running)).rejects.toThrow(ClientLimitError);
    await store.release('task:r1', running);
    expect(await store.create('task:r2', {}, 1_000, running)).toBe(true);
    expect(await store.get('task:r1')).toEqual({ status: 'working' });
    // Releasing again, or a missing key, changes nothing.
    await store.release('task:r1', running);
    await store.release('task:none', running);
    await expect(store.create('task:r3', {}, 1_000, running)).rejects.toThrow(ClientLimitError);
  });

  it('gives records without a kind what the budgets leave of maxEntries; budgets must fit in it', async () => {
    const { store } = setup(20);
    // claims 10, tasks 5, ended sessions 4: one entry is left.
    await store.set('own:1', 'x', 10_000);
    const full = await store.set('own:2', 'x', 10_000).catch((error: unknown) => error);
    expect((full as StoreFullError).message).toBe("Service Unavailable: the server's store is full; retry later");
    expect(() => new InMemoryMcpStore({ maxEntries: 10, budgets: { claim: 8 } })).toThrow("A store's budgets (12 records in all) must fit in its maxEntries (10)");
    expect(() => new InMemoryMcpStore({ budgets: { task: 0 } })).toThrow("A store's task budget must be a positive integer; got 0");
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
