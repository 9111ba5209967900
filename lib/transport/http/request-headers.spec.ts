import { describe, expect, it } from '@jest/globals';
import { decodeHeaderValue } from '../../protocol/mcp-headers.js';
import { HeaderMismatchError } from '../../protocol/mcp.error.js';
import type { RequestMeta } from '../../protocol/request-meta.js';
import type { JsonRpcRequest } from '../../protocol/wire.types.js';
import { validateParamHeaders, validateStandardHeaders } from './request-headers.js';

const meta = { protocolVersion: '2026-07-28', clientCapabilities: {}, raw: {} } as RequestMeta;
const call: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hello' } };
const good = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'hello' };

function mismatch(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HeaderMismatchError);
    expect((error as HeaderMismatchError).code).toBe(-32020);
    expect((error as HeaderMismatchError).httpStatus).toBe(400);
    return (error as Error).message;
  }
  throw new Error('expected a HeaderMismatchError');
}

describe('validateStandardHeaders', () => {
  it('accepts matching headers', () => {
    expect(() => validateStandardHeaders(good, call, meta)).not.toThrow();
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('asks no Mcp-Name for the method %s (an Object.prototype name)', (method) => {
    const headers = { ...good, 'mcp-method': method, 'mcp-name': undefined };
    expect(() => validateStandardHeaders(headers, { ...call, method }, meta)).not.toThrow();
  });

  it.each([
    ['a missing MCP-Protocol-Version', { ...good, 'mcp-protocol-version': undefined }, 'MCP-Protocol-Version'],
    ['a different MCP-Protocol-Version', { ...good, 'mcp-protocol-version': '2025-11-25' }, '2025-11-25'],
    ['a missing Mcp-Method', { ...good, 'mcp-method': undefined }, 'Mcp-Method'],
    ['a differently cased Mcp-Method', { ...good, 'mcp-method': 'TOOLS/CALL' }, 'TOOLS/CALL'],
    ['a missing Mcp-Name', { ...good, 'mcp-name': undefined }, 'Mcp-Name'],
    ['another Mcp-Name', { ...good, 'mcp-name': 'other' }, 'other'],
  ])('rejects %s', (_case, headers, mentioned) => {
    expect(mismatch(() => validateStandardHeaders(headers, call, meta))).toContain(mentioned);
  });

  it('reads Mcp-Name of resources/read from the uri and needs none for tools/list', () => {
    const read: JsonRpcRequest = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'test://a b' } };
    const sentinel = `=?base64?${Buffer.from('test://a b').toString('base64')}?=`;
    expect(() => validateStandardHeaders({ ...good, 'mcp-method': 'resources/read', 'mcp-name': sentinel }, read, meta)).not.toThrow();
    const list: JsonRpcRequest = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
    expect(() => validateStandardHeaders({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, list, meta)).not.toThrow();
  });
});

describe('decodeHeaderValue', () => {
  it('decodes the Base64 sentinel and keeps plain values', () => {
    expect(decodeHeaderValue('Mcp-Name', '=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue('Mcp-Name', 'SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeHeaderValue('Mcp-Name', '=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
  });

  it('rejects invalid Base64 inside the sentinel and control characters', () => {
    expect(mismatch(() => decodeHeaderValue('Mcp-Name', '=?base64?SGVsbG8?='))).toContain('Base64');
    expect(mismatch(() => decodeHeaderValue('Mcp-Name', '=?base64?SGVs!!!bG8=?='))).toContain('Base64');
    expect(mismatch(() => decodeHeaderValue('Mcp-Name', 'a\u0001b'))).toContain('invalid characters');
  });
});

describe('validateParamHeaders', () => {
  const mirrored = new Map([
    ['region', 'Region'],
    ['level', 'Level'],
    ['dry', 'Dry'],
  ]);

  it('accepts matching values, numbers compared numerically, and absent arguments without headers', () => {
    const headers = { 'mcp-param-region': 'eu', 'mcp-param-level': '42.0', 'mcp-param-dry': 'true' };
    expect(() => validateParamHeaders(headers, { region: 'eu', level: 42, dry: true }, mirrored)).not.toThrow();
    expect(() => validateParamHeaders({}, { region: null }, mirrored)).not.toThrow();
  });

  it('rejects a missing or different header', () => {
    expect(mismatch(() => validateParamHeaders({}, { region: 'eu' }, mirrored))).toContain('Mcp-Param-Region');
    expect(mismatch(() => validateParamHeaders({ 'mcp-param-level': '41' }, { level: 42 }, mirrored))).toContain('Mcp-Param-Level');
    expect(mismatch(() => validateParamHeaders({ 'mcp-param-dry': 'yes' }, { dry: true }, mirrored))).toContain('Mcp-Param-Dry');
  });
});
