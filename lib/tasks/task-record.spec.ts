import { describe, expect, it } from '@jest/globals';
import { answered, awaitingInput, cancelled, detailedTask, finished, leaseLost, type TaskRecord } from './task-record.js';

const T0 = 1_750_000_000_000;
const accepts = (_request: unknown, response: unknown) => typeof response === 'object' && response !== null && 'action' in response;
const ask = (message: string) => ({ method: 'elicitation/create' as const, params: { mode: 'form' as const, message, requestedSchema: { type: 'object' as const, properties: {} } } });

function working(): TaskRecord {
  const at = new Date(T0).toISOString();
  return {
    taskId: 't1', status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: 60_000, pollIntervalMs: 1_000,
    expiresAt: T0 + 60_000, leaseExpiresAt: T0 + 15_000, call: { requestId: 1, params: {} }, rounds: [],
  };
}

function waitingOnTwo(): TaskRecord {
  return awaitingInput(working(), T0, { fingerprint: 'f1', inputRequests: { a: ask('A?'), b: ask('B?') }, keys: { a: 'a', b: 'b' }, answers: {} })!;
}

describe('task record transitions', () => {
  it('keeps a partial answer outstanding; the last answer resumes with a fresh lease and the ledger round', () => {
    const partial = answered(waitingOnTwo(), T0 + 1, { a: { action: 'accept' }, stray: { action: 'accept' } }, accepts, 15_000)!;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(detailedTask(partial).inputRequests as object)).toEqual(['b']);
    const resumed = answered(partial, T0 + 2, { b: { action: 'decline' } }, accepts, 15_000)!;
    expect(resumed).toMatchObject({ status: 'working', leaseExpiresAt: T0 + 2 + 15_000, pending: undefined });
    expect(resumed.rounds).toEqual([{ fingerprint: 'f1', responses: { a: { action: 'accept' }, b: { action: 'decline' } } }]);
    // A duplicate update finds nothing outstanding: no change, so nobody resumes twice.
    expect(answered(resumed, T0 + 3, { b: { action: 'decline' } }, accepts, 15_000)).toBeUndefined();
  });

  it('ignores only unknown or malformed answers', () => {
    expect(answered(waitingOnTwo(), T0, { 'unknown-key': { ignored: true } }, accepts, 15_000)).toBeUndefined();
    expect(answered(waitingOnTwo(), T0, { a: { notAnAnswer: true } }, accepts, 15_000)).toBeUndefined();
  });

  it('is final once terminal: late results and cancels change nothing', () => {
    const gone = cancelled(working(), T0)!;
    expect(gone.status).toBe('cancelled');
    expect(finished(gone, T0 + 1, { result: { resultType: 'complete', content: [] } })).toBeUndefined();
    expect(cancelled(gone, T0 + 1)).toBeUndefined();
  });

  it('fails a working task only once its lease has run out', () => {
    const lost = { code: -32603, message: 'lost' };
    expect(leaseLost(working(), T0 + 15_000 - 1, lost)).toBeUndefined();
    expect(leaseLost(working(), T0 + 15_000, lost)).toMatchObject({ status: 'failed', error: lost });
    expect(leaseLost(waitingOnTwo(), T0 + 99_000, lost)).toBeUndefined(); // nobody runs a task that waits for input
  });

  it('shows the result, the error or the questions by status, never the internals', () => {
    const done = detailedTask(finished(working(), T0, { result: { resultType: 'complete', content: [] } })!);
    expect(done).toMatchObject({ status: 'completed', result: { content: [] } });
    for (const internal of ['call', 'rounds', 'pending', 'expiresAt', 'leaseExpiresAt', 'principal']) expect(done).not.toHaveProperty(internal);
  });
});
