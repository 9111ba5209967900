import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ClientLimitError, StoreFullError, type McpRecordKind, type McpRecordScope, type McpStore } from '../../lib/index.js';
import { until } from './waiting.js';

/**
 * How a store under test is made and torn down; `fresh` keys keep tests apart on a shared backend.
 * With `limits`, a store of its own bounded to `maxEntries` (its budgets by kind the default shares of it).
 */
export interface StoreUnderTest {
  open(limits?: { maxEntries: number }): Promise<McpStore>;
  close?(store: McpStore): Promise<void>;
}

/** What the flood test measured, for the closing note: records written and refused, and the time it took. */
export interface FloodFigures {
  store: string;
  maxEntries: number;
  written: Record<McpRecordKind, number>;
  refused: number;
  ms: number;
}
export const floodFigures: FloodFigures[] = [];

/** The small bound of the flood test: it runs in well under a second on either store. */
const FLOOD_MAX_ENTRIES = 200;
const KINDS: McpRecordKind[] = ['claim', 'task', 'session-end'];

/** Writes new records of `kind` until the store refuses one (or `attempts` ran out); how many it took. */
async function flood(store: McpStore, kind: McpRecordKind, attempts: number, scope: McpRecordScope = { kind }): Promise<{ written: number; refusal: unknown }> {
  for (let written = 0; written < attempts; written++) {
    const key = fresh(`flood-${kind}-${written}`);
    try {
      if (kind === 'claim') expect(await store.claimOnce(key, 60_000, scope)).toBe(true);
      else if (kind === 'task') expect(await store.create(key, { status: 'working', n: written }, 60_000, scope)).toBe(true);
      else await store.set(key, true, 60_000, scope);
    } catch (refusal) {
      return { written, refusal };
    }
  }
  return { written: attempts, refusal: undefined };
}

/** The retryable refusal of a full store: -31503, HTTP 503, a wait no longer than the records live. */
function expectStoreFull(refusal: unknown): void {
  expect(refusal).toBeInstanceOf(StoreFullError);
  const error = refusal as StoreFullError;
  expect(error.httpStatus).toBe(503);
  expect(error.toJsonRpc()).toMatchObject({ code: -31503, message: expect.stringMatching(/^Service Unavailable: the server's store is full/) });
  expect(error.retryAfterMs).toBeGreaterThanOrEqual(0);
  expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
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

    it('flooded past its limit, it keeps every live record (a spent claim, a live task, an ended session) and refuses new work, retryably', async () => {
      const bounded = await subject.open({ maxEntries: FLOOD_MAX_ENTRIES });
      try {
        // What answers depend on, written before the flood.
        const spent = fresh('spent-claim');
        const task = fresh('live-task');
        const ended = fresh('ended-session');
        expect(await bounded.claimOnce(spent, 60_000, { kind: 'claim' })).toBe(true);
        expect(await bounded.create(task, { status: 'working' }, 60_000, { kind: 'task', limits: [{ id: 'bob', limit: 5 }] })).toBe(true);
        await bounded.set(ended, true, 60_000, { kind: 'session-end' });

        // One client floods every kind, each until the store refuses (never more than max-entries + 1 tries).
        const started = performance.now();
        const written = {} as Record<McpRecordKind, number>;
        let refused = 0;
        for (const kind of KINDS) {
          const outcome = await flood(bounded, kind, FLOOD_MAX_ENTRIES + 1);
          expect(outcome.written).toBeLessThan(FLOOD_MAX_ENTRIES);
          expectStoreFull(outcome.refusal);
          written[kind] = outcome.written;
          // It stays refused: a second try is refused the same way, nothing was dropped to make room.
          for (let again = 0; again < 10; again++, refused++) expectStoreFull((await flood(bounded, kind, 1)).refusal);
        }
        floodFigures.push({ store: name, maxEntries: FLOOD_MAX_ENTRIES, written, refused: refused + KINDS.length, ms: Math.round(performance.now() - started) });

        // All three are what they were: the spent claim is still spent, the task and the session end still there.
        expect(await bounded.claimOnce(spent, 60_000, { kind: 'claim' })).toBe(false);
        expect(await bounded.get(task)).toEqual({ status: 'working' });
        expect(await bounded.get(ended)).toBe(true);
        // Changing what exists needs no room: the task still moves on.
        expect(await bounded.compareAndSet(task, { status: 'working' }, { status: 'completed' }, 60_000)).toBe(true);
        expect(await bounded.create(task, {}, 60_000, { kind: 'task' })).toBe(false);
        // And new work is refused with the retryable error, not written.
        const late = fresh('late-claim');
        expectStoreFull(await bounded.claimOnce(late, 60_000, { kind: 'claim' }).catch((error: unknown) => error));
        expect(await bounded.get(late)).toBeUndefined();
      } finally {
        await (subject.close ? subject.close(bounded) : bounded.close?.());
      }
    });

    it("caps a client's live records of a kind: that client gets -31429, another client still gets room", async () => {
      const bounded = await subject.open({ maxEntries: FLOOD_MAX_ENTRIES });
      try {
        const alice = { kind: 'task' as const, limits: [{ id: 'alice', limit: 3 }] };
        const first = fresh('alice-1');
        expect(await bounded.create(first, { n: 1 }, 60_000, alice)).toBe(true);
        const outcome = await flood(bounded, 'task', 10, alice);
        expect(outcome.written).toBe(2);
        expect(outcome.refusal).toBeInstanceOf(ClientLimitError);
        const error = outcome.refusal as ClientLimitError;
        expect(error.httpStatus).toBe(429);
        expect(error.toJsonRpc()).toMatchObject({ code: -31429, data: { limit: 3 } });
        expect(error.retryAfterMs).toBeGreaterThan(0);
        expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
        expect(await bounded.create(fresh('bob-1'), { n: 1 }, 60_000, { kind: 'task', limits: [{ id: 'bob', limit: 3 }] })).toBe(true);
        expect(await bounded.get(first)).toEqual({ n: 1 });
        // A deleted record frees its client's room.
        await bounded.delete(first);
        expect(await bounded.create(fresh('alice-4'), { n: 4 }, 60_000, alice)).toBe(true);
        // A refusal never asks to retry later than the refused record would have lived.
        const shortLived = (await bounded.claimOnce(fresh('alice-claim'), 60_000, { kind: 'claim', limits: [{ id: 'alice', limit: 1 }] }).then(() =>
          bounded.claimOnce(fresh('alice-claim'), 2_000, { kind: 'claim', limits: [{ id: 'alice', limit: 1 }] }).catch((refusal: unknown) => refusal),
        )) as ClientLimitError;
        expect(shortLived).toBeInstanceOf(ClientLimitError);
        expect(shortLived.retryAfterMs).toBeLessThanOrEqual(2_000);
      } finally {
        await (subject.close ? subject.close(bounded) : bounded.close?.());
      }
    });

    it('counts a record against every limit of its scope, and releases a finished one from a limit while keeping it', async () => {
      const bounded = await subject.open({ maxEntries: FLOOD_MAX_ENTRIES });
      try {
        const both = { kind: 'task' as const, limits: [{ id: 'carol', limit: 5 }, { id: 'running:carol', limit: 1 }] };
        expect(await bounded.create(fresh('carol-1'), {}, 60_000, both)).toBe(true);
        const refused = await bounded.create(fresh('carol-2'), {}, 60_000, both).catch((refusal: unknown) => refusal);
        expect((refused as ClientLimitError).limit).toBe(1);

        const running = { kind: 'task' as const, limits: [{ id: 'running:bob', limit: 1 }] };
        const task = fresh('running');
        expect(await bounded.create(task, { status: 'working' }, 60_000, running)).toBe(true);
        await expect(bounded.create(fresh('running'), {}, 60_000, running)).rejects.toThrow(ClientLimitError);
        await bounded.release(task, running);
        expect(await bounded.create(fresh('running'), {}, 60_000, running)).toBe(true);
        expect(await bounded.get(task)).toEqual({ status: 'working' });
      } finally {
        await (subject.close ? subject.close(bounded) : bounded.close?.());
      }
    });

    it('refuses a non-positive TTL', async () => {
      await expect(store.create(fresh('ttl'), 1, 0)).rejects.toThrow('positive number of milliseconds');
      await expect(store.compareAndSet(fresh('ttl'), 1, 2, -1)).rejects.toThrow('positive number of milliseconds');
    });
  });
}
