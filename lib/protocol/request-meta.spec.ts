import { describe, expect, it } from '@jest/globals';
import { InvalidParamsError } from './mcp.error.js';
import { parseRequestMeta } from './request-meta.js';

const meta = (fields: Record<string, unknown>) => ({ _meta: fields });
const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

function rejection(params: unknown): InvalidParamsError {
  try {
    parseRequestMeta(params);
  } catch (error) {
    return error as InvalidParamsError;
  }
  throw new Error('expected a rejection');
}

describe('parseRequestMeta', () => {
  it('reads version, capabilities, client info and progress token', () => {
    const parsed = parseRequestMeta(meta({ [VERSION]: '2026-07-28', [CAPS]: { elicitation: {} }, [INFO]: { name: 'c', version: '1' }, progressToken: 7 }));
    expect(parsed).toMatchObject({ protocolVersion: '2026-07-28', clientCapabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' }, progressToken: 7 });
  });

  it('does not require clientInfo (the spec makes it a SHOULD) and ignores a malformed one', () => {
    expect(parseRequestMeta(meta({ [VERSION]: '2026-07-28', [CAPS]: {} })).clientInfo).toBeUndefined();
    expect(parseRequestMeta(meta({ [VERSION]: '2026-07-28', [CAPS]: {}, [INFO]: 'x' })).clientInfo).toBeUndefined();
  });

  it.each([
    ['no params', undefined, 'params with _meta is required'],
    ['params without _meta', {}, 'params._meta is required'],
    ['_meta not an object', { _meta: [] }, 'params._meta is required'],
    ['no protocol version', meta({ [CAPS]: {} }), VERSION],
    ['empty protocol version', meta({ [VERSION]: '', [CAPS]: {} }), VERSION],
    ['no capabilities', meta({ [VERSION]: '2026-07-28' }), CAPS],
    ['capabilities not an object', meta({ [VERSION]: '2026-07-28', [CAPS]: 'all' }), CAPS],
  ])('rejects %s with -32602 and HTTP 400', (_case, params, mentioned) => {
    const error = rejection(params);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.code).toBe(-32602);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(mentioned);
  });

  it('ignores a progress token of the wrong type', () => {
    expect(parseRequestMeta(meta({ [VERSION]: 'v', [CAPS]: {}, progressToken: {} })).progressToken).toBeUndefined();
  });
});
