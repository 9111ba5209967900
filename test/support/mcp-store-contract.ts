import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { McpStore } from '../../lib/index.js';
import { until } from './waiting.js';

/** How a store under test is made and torn down; `fresh` keys keep tests apart on a shared backend. */
export interface StoreUnderTest {
  open(): Promise<McpStore>;
  close?(store: McpStore): Promise<void>;
}


let counter = 0;
const fresh = (name: string) => `contract:${process.pid}:${Date.now()}:${++counter}:${name}`;

/**
 * The behaviour every McpStore must have, as a kit any implementation can run (as mocapi ships its
 * TaskStoreContractTest): `describeMcpStoreContract('MyStore', { open: () => MyStore.connect(…) })`.
 */
export function describeMcpStoreContract(name: string, subject: StoreUnderTest): void {
  describe(`McpStore contract: ${name}`, () => {
    let store: McpStore;
    beforeAll(async () => {
      store = await subject.open();
    }, 20_000);
    afterAll(async () => {
      if (store) await (subject.close ? subject.close(store) : store.close?.());
    });

    it('reads back what it stores, as a copy; unknown keys read undefined', async () => {
      const key = fresh('roundtrip');
      const value = { status: 'working', list: [1, 2], nested: { a: null } };
      await store.set(key, value, 60_000);
      value.list.push(3);
      expect(await store.get(key)).toEqual({ status: 'working', list: [1, 2], nested: { a: null } });
      expect(await store.get(fresh('missing'))).toBeUndefined();
    });

    it('claims once and creates once: concurrent callers have one winner, and the winner is readable at once', async () => {
      const claim = fresh('claim');
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimOnce(claim, 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const key = fresh('create');
      const creations = await Promise.all(Array.from({ length: 10 }, (_, index) => store.create(key, { index }, 60_000)));
      expect(creations.filter(Boolean)).toHaveLength(1);
      expect(await store.get(key)).toEqual({ index: creations.indexOf(true) });
    });

    it('compare-and-set writes only over the expected value; concurrent updates lose none', async () => {
      const key = fresh('cas');
      expect(await store.compareAndSet(key, { version: 0 }, { version: 1 }, 60_000)).toBe(false); // nothing there
      await store.create(key, { version: 0, count: 0 }, 60_000);
      expect(await store.compareAndSet(key, { version: 9, count: 0 }, { version: 1, count: 1 }, 60_000)).toBe(false);
      const increment = async () => {
        for (;;) {
          const current = (await store.get<{ version: number; count: number }>(key))!;
          if (await store.compareAndSet(key, current, { version: current.version + 1, count: current.count + 1 }, 60_000)) return;
        }
      };
      await Promise.all(Array.from({ length: 20 }, increment));
      expect(await store.get(key)).toEqual({ version: 20, count: 20 });
    });

    it('expires entries after their TTL, whichever call wrote them', async () => {
      const set = fresh('set');
      const created = fresh('created');
      const swapped = fresh('swapped');
      await store.set(set, 1, 50);
      await store.create(created, 1, 50);
      await store.create(swapped, 1, 60_000);
      await store.compareAndSet(swapped, 1, 2, 50);
      const gone = async () => (await store.get(set)) === undefined && (await store.get(created)) === undefined && (await store.get(swapped)) === undefined;
      // Expiry is awaited, not assumed (no timed assertion).
      await until(gone, 'the three keys to expire');
      // An expired key is free again.
      expect(await store.create(created, 'again', 60_000)).toBe(true);
    });

    it('deletes idempotently', async () => {
      const key = fresh('delete');
      await store.set(key, 'x', 60_000);
      await store.delete(key);
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
      expect(await store.compareAndSet(key, 'x', 'y', 60_000)).toBe(false);
    });

    it('refuses a non-positive TTL', async () => {
      await expect(store.create(fresh('ttl'), 1, 0)).rejects.toThrow('positive number of milliseconds');
      await expect(store.compareAndSet(fresh('ttl'), 1, 2, -1)).rejects.toThrow('positive number of milliseconds');
    });
  });
}
