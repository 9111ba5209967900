import { describe, expect, it } from '@jest/globals';
import { Deadlines } from './deadlines.js';

/** Resolves when `expire` has been called `count` times, with the names in the order they expired. */
function expiries(count: number): { order: string[]; expire: (name: string) => () => void; all: Promise<string[]> } {
  const order: string[] = [];
  let done!: (names: string[]) => void;
  const all = new Promise<string[]>((resolve) => (done = resolve));
  const expire = (name: string) => () => {
    order.push(name);
    if (order.length === count) done(order);
  };
  return { order, expire, all };
}

describe('Deadlines (one timer for every deadline of one duration)', () => {
  it('expires deadlines in the order they were set, and never one that was cleared', async () => {
    const queue = Deadlines.of(15);
    const { expire, all } = expiries(2);
    const first = queue.set(expire('first'));
    const second = queue.set(expire('second'));
    queue.set(expire('third'));
    second.clear();
    expect(await all).toEqual(['first', 'third']);
    first.clear(); // after expiry: nothing to do
  });

  it('a deadline set after the head was cleared still expires (the timer is re-armed for the next one)', async () => {
    const queue = Deadlines.of(20);
    const { expire, all } = expiries(1);
    queue.set(expire('cleared')).clear();
    await new Promise((resolve) => setImmediate(resolve));
    queue.set(expire('kept'));
    expect(await all).toEqual(['kept']);
  });

  it('a deadline waits its whole duration, measured from when it was set', async () => {
    const queue = Deadlines.of(30);
    const set = performance.now();
    const expired = new Promise<number>((resolve) => queue.set(() => resolve(performance.now())));
    // The Node timer behind it may fire a little early by its own clock; the deadline itself never does.
    expect((await expired) - set).toBeGreaterThanOrEqual(30);
  });

  it('one queue per duration', () => {
    expect(Deadlines.of(40)).toBe(Deadlines.of(40));
    expect(Deadlines.of(40)).not.toBe(Deadlines.of(41));
  });
});
