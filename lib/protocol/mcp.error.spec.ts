import { describe, expect, it } from '@jest/globals';
import { HeaderMismatchError, MethodNotFoundError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError } from './mcp.error.js';

describe('McpError', () => {
  it('carries the JSON-RPC code and the HTTP status of each error kind', () => {
    expect(new MethodNotFoundError('ping').toJsonRpc()).toEqual({ code: -32601, message: 'Method not found: ping' });
    expect(new MethodNotFoundError('ping').httpStatus).toBe(404);
    expect(new HeaderMismatchError('x').code).toBe(-32020);
    expect(new HeaderMismatchError('x').httpStatus).toBe(400);
  });

  it('puts supported and requested versions into -32022 data', () => {
    expect(new UnsupportedProtocolVersionError('v9').toJsonRpc()).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: 'v9' },
    });
  });

  it('names the missing capability in -32021 data', () => {
    const error = new MissingRequiredClientCapabilityError({ sampling: {} });
    expect(error.toJsonRpc().data).toEqual({ requiredCapabilities: { sampling: {} } });
    expect(error.httpStatus).toBe(400);
  });
});
