import { describe, expect, it } from '@jest/globals';
import { ClientLimitError, RefusalWarnings, retryAfterHeader, StoreFullError, storeBudgets } from './store-limits.js';

describe('store limits', () => {
  it('splits maxEntries into budgets by kind, explicit ones first', () => {
    expect(storeBudgets()).toEqual({ claim: 50_000, task: 25_000, 'session-end': 20_000 });
    expect(storeBudgets(300, { task: 10 })).toEqual({ claim: 150, task: 10, 'session-end': 60 });
    expect(() => storeBudgets(0)).toThrow("A store's maxEntries must be a positive integer; got 0");
  });

  it('puts Retry-After (whole seconds, at least 1) on the 503 and 429 answers of a refusal, and on nothing else', () => {
    const answer = (error: StoreFullError | ClientLimitError) => ({ jsonrpc: '2.0', id: 1, error: error.toJsonRpc() });
    expect(retryAfterHeader(503, answer(new StoreFullError('claim', 1_200)))).toEqual({ 'Retry-After': '2' });
    expect(retryAfterHeader(503, answer(new StoreFullError(undefined, 0)))).toEqual({ 'Retry-After': '1' });
    expect(retryAfterHeader(429, answer(new ClientLimitError('task', 3, 3_600_000)))).toEqual({ 'Retry-After': '3600' });
    // A 2025 session gets its errors with HTTP 200: data.retryAfterMs is what tells it.
    expect(retryAfterHeader(200, answer(new StoreFullError('task', 5_000)))).toEqual({});
    expect(retryAfterHeader(503, { jsonrpc: '2.0', id: 1, error: { code: -31503, message: 'shutting down' } })).toEqual({});
    expect(retryAfterHeader(503, undefined)).toEqual({});
  });

  it('warns once per topic in 10 s, counting the refusals it did not log into the next warning', () => {
    const clock = { now: 0 };
    const lines: string[] = [];
    const warnings = new RefusalWarnings(() => clock.now, { warn: (message: string) => lines.push(message) });
    warnings.full('claim', 5);
    warnings.full('claim', 5);
    warnings.full('task', 3);
    warnings.clientLimit('task', 2);
    clock.now += 9_999;
    warnings.full('claim', 5);
    expect(lines).toEqual([
      'The MCP store is full of live requestState claims (5, mocapi.store.max-claims): new work that needs one is refused with -31503 (HTTP 503, Retry-After) until they expire',
      'The MCP store is full of live tasks (3, mocapi.store.max-tasks): new work that needs one is refused with -31503 (HTTP 503, Retry-After) until they expire',
      'A client holds 2 live tasks, its share: its new ones are refused with -31429 (HTTP 429, Retry-After) until one expires; other clients are not affected',
    ]);
    clock.now += 1;
    warnings.full('claim', 5);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/until they expire \(2 more refusals since the last warning\)$/);
  });
});
