import { describe, expect, it } from '@jest/globals';
import { classifyMessage, MAX_ID_LENGTH } from './json-rpc-envelope.js';

const request = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

describe('classifyMessage ids', () => {
  it.each(['1e400', '-1e400', '18446744073709551617', '9007199254740993'])('refuses the id %s, which JSON numbers cannot carry exactly (-32600, no id)', (text) => {
    const incoming = classifyMessage(JSON.parse(`{"jsonrpc":"2.0","id":${text},"method":"tools/list","params":{}}`));
    expect(incoming).toMatchObject({ kind: 'invalid', error: { code: -32600, httpStatus: 400 } });
    expect(incoming).not.toHaveProperty('id');
  });

  it.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER, 'x', 'x'.repeat(MAX_ID_LENGTH)])('accepts the id %s', (id) => {
    expect(classifyMessage(request(id))).toMatchObject({ kind: 'request', request: { id } });
  });

  it.each([MAX_ID_LENGTH + 1, 1_000_000])('refuses a string id of %d characters (-32600, not echoed)', (length) => {
    const incoming = classifyMessage(request('x'.repeat(length)));
    expect(incoming).toEqual({ kind: 'invalid', error: expect.objectContaining({ code: -32600, httpStatus: 400 }) });
    expect((incoming as { error: Error }).error.message).toBe(`Invalid Request: a string "id" must be at most ${MAX_ID_LENGTH} characters`);
  });

  it('does not echo an overlong id on any other refusal, nor hand it on with a client response', () => {
    const id = 'x'.repeat(MAX_ID_LENGTH + 1);
    expect(classifyMessage({ jsonrpc: '1.0', id, method: 'tools/list' })).toMatchObject({ kind: 'invalid', id: undefined });
    expect(classifyMessage({ jsonrpc: '2.0', id, result: {} })).toMatchObject({ kind: 'response', id: undefined, response: { id: undefined } });
  });
});

describe('classifyMessage responses', () => {
  it('carries the result or the error of a client response, for the transport to hand on as is', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 'q-1', result: { action: 'accept' } })).toEqual({
      kind: 'response',
      id: 'q-1',
      response: { id: 'q-1', result: { action: 'accept' }, error: undefined },
    });
    const error = { code: -1, message: 'User rejected' };
    expect(classifyMessage({ jsonrpc: '2.0', id: 7, error })).toMatchObject({ kind: 'response', id: 7, response: { id: 7, error } });
  });
});
