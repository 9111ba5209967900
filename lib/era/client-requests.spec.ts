import { describe, expect, it, jest } from '@jest/globals';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/wire.types.js';
import { ClientAnswerError, ClientAnswerTimeoutError, ClientRequests } from './client-requests.js';

function harness(timeoutMs = 1_000) {
  const table = new ClientRequests();
  const sent: Array<JsonRpcRequest | JsonRpcNotification> = [];
  const abort = new AbortController();
  const ask = (scope = 'session-a') => table.request('elicitation/create', { message: 'Name?' }, { scope, send: (m) => sent.push(m), signal: abort.signal, timeoutMs });
  return { table, sent, abort, ask };
}

describe('ClientRequests (the server→client requests awaiting an answer)', () => {
  it('sends a request with a fresh string id and resolves with the result posted in the same scope', async () => {
    const { table, sent, ask } = harness();
    const answer = ask();
    const request = sent[0] as JsonRpcRequest;
    expect(request).toEqual({ jsonrpc: '2.0', id: expect.any(String), method: 'elicitation/create', params: { message: 'Name?' } });
    expect(table.size).toBe(1);
    expect(table.answer('session-a', { id: request.id, result: { action: 'decline' } })).toBe(true);
    await expect(answer).resolves.toEqual({ action: 'decline' });
    expect(table.size).toBe(0);
    expect(table.answer('session-a', { id: request.id, result: {} })).toBe(false);
  });

  it('never lets another scope (session) answer, nor numeric or unknown ids', async () => {
    const { table, sent, ask } = harness();
    const answer = ask();
    const id = (sent[0] as JsonRpcRequest).id;
    expect(table.answer('session-b', { id, result: { action: 'accept' } })).toBe(false);
    expect(table.answer('session-a', { id: 1, result: {} })).toBe(false);
    expect(table.answer('session-a', { id: 'other', result: {} })).toBe(false);
    expect(table.size).toBe(1);
    table.answer('session-a', { id, error: { code: -1, message: 'User rejected' } });
    await expect(answer).rejects.toBeInstanceOf(ClientAnswerError);
    await expect(answer).rejects.toThrow('The client answered elicitation/create with error -1: User rejected');
  });

  it('drops the entry when the call ends first', async () => {
    const { table, abort, ask } = harness();
    const answer = ask();
    abort.abort(new Error('client gone'));
    await expect(answer).rejects.toThrow('client gone');
    expect(table.size).toBe(0);
  });

  it('times out: cancels the request on the wire and fails with a clear error', async () => {
    jest.useFakeTimers();
    try {
      const { table, sent, ask } = harness(500);
      const answer = ask();
      jest.advanceTimersByTime(500);
      await expect(answer).rejects.toBeInstanceOf(ClientAnswerTimeoutError);
      expect(sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: (sent[0] as JsonRpcRequest).id, reason: expect.any(String) } });
      expect(table.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
