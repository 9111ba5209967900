import { describe, expect, it } from '@jest/globals';
import { classifyMessage } from './json-rpc-envelope.js';

const request = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

describe('classifyMessage ids', () => {
  it.each(['1e400', '-1e400', '18446744073709551617', '9007199254740993'])('refuses the id %s, which JSON numbers cannot carry exactly (-32600, no id)', (text) => {
    const incoming = classifyMessage(JSON.parse(`{"jsonrpc":"2.0","id":${text},"method":"tools/list","params":{}}`));
    expect(incoming).toMatchObject({ kind: 'invalid', error: { code: -32600, httpStatus: 400 } });
    expect(incoming).not.toHaveProperty('id');
  });

  it.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER, 'x'])('accepts the id %s', (id) => {
    expect(classifyMessage(request(id))).toMatchObject({ kind: 'request', request: { id } });
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
