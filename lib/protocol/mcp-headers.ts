import { HeaderMismatchError } from './mcp.error.js';

/**
 * The methods whose `Mcp-Name` header mirrors a body field (SEP-2243): the server checks it, the
 * testing kit sends it, so both read this one list.
 */
export const MCP_NAME_FIELDS: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // The tasks extension (SEP-2663): the client echoes the task id.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII and spaces: what a plain (non-sentinel) header value may hold. */
const PLAIN_VALUE = /^[\x20-\x7e]*$/;
/** What goes plain when sending: visible ASCII, inner spaces only (edge spaces would be trimmed on the way). */
const SENDABLE_PLAIN = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/**
 * A header value as 2026-07-28 carries it (SEP-2243): plain visible ASCII as is, anything else
 * (non-ASCII, control characters, edge spaces) in the `=?base64?…?=` form that decodeHeaderValue reads.
 */
export function encodeHeaderValue(value: string): string {
  if (SENDABLE_PLAIN.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * Decodes the `=?base64?…?=` sentinel form of `Mcp-Name` / `Mcp-Param-*` values; other values are
 * taken literally. A sentinel with invalid Base64 is a -32020 error.
 */
export function decodeHeaderValue(header: string, value: string): string {
  const match = SENTINEL.exec(value);
  if (!match) {
    if (!PLAIN_VALUE.test(value)) throw new HeaderMismatchError(`${header} contains invalid characters`);
    return value;
  }
  if (!BASE64.test(match[1])) throw new HeaderMismatchError(`${header} holds invalid Base64 in its =?base64?…?= form`);
  return Buffer.from(match[1], 'base64').toString('utf8');
}
