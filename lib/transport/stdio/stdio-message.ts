import { InvalidRequestError, McpError, ParseError } from '../../protocol/mcp.error.js';
import { JsonRpcErrorCode } from '../../protocol/protocol.constants.js';
import { isPlainObject } from '../../protocol/request-meta.js';
import type { JsonObject, JsonRpcRequest, RequestId } from '../../protocol/wire.types.js';

/** One stdin line, sorted the way the stdio transport acts on it. @internal */
export type StdioIncoming =
  | { kind: 'request'; request: JsonRpcRequest }
  | { kind: 'notification'; method: string; params?: JsonObject }
  /** A JSON-RPC response from the client: the server sends no requests on 2026-07-28 stdio, so nothing awaits it. */
  | { kind: 'response'; id?: RequestId | null }
  | { kind: 'invalid'; error: McpError; id: RequestId | null };

/**
 * Parses and classifies one line. Mirrors the envelope rules of the HTTP edge (no batches,
 * `jsonrpc: "2.0"`, string `method`, object `params`, string or number `id`), but a client's
 * response is its own kind: on stdio the line is not a POST that needs an answer.
 * @internal
 */
export function classifyLine(line: string): StdioIncoming {
  let body: unknown;
  try {
    body = JSON.parse(line);
  } catch {
    return { kind: 'invalid', error: new ParseError('Parse error: the line is not valid JSON'), id: null };
  }
  if (Array.isArray(body)) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: JSON-RPC batches are not supported'), id: null };
  if (!isPlainObject(body)) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: each line must be a JSON-RPC object'), id: null };
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  if (body.jsonrpc !== '2.0') return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "jsonrpc" must be "2.0"'), id };
  if (typeof body.method !== 'string') {
    if ('result' in body || 'error' in body) return { kind: 'response', id };
    return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "method" must be a string'), id };
  }
  if (body.params !== undefined && !isPlainObject(body.params)) {
    return { kind: 'invalid', error: new McpError(JsonRpcErrorCode.InvalidParams, 'Invalid params: "params" must be an object'), id };
  }
  if (!('id' in body)) return { kind: 'notification', method: body.method, params: body.params as JsonObject | undefined };
  if (id === null) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "id" must be a string or a number'), id: null };
  return { kind: 'request', request: { jsonrpc: '2.0', id, method: body.method, params: body.params as JsonObject | undefined } };
}
