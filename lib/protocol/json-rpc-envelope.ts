import { InvalidParamsError, InvalidRequestError, type McpError } from './mcp.error.js';
import { isPlainObject } from './json-value.js';
import type { JsonObject, JsonRpcRequest, RequestId } from './wire.types.js';

/** A JSON-RPC response a client sent: its id and either `result` or `error`, as they came (checked where they are used). */
export interface ClientResponse {
  id?: RequestId | null;
  result?: unknown;
  error?: unknown;
}

/** One incoming JSON-RPC message, sorted the way a transport acts on it. */
export type IncomingJsonRpc =
  | { kind: 'request'; request: JsonRpcRequest }
  | { kind: 'notification'; method: string; params?: JsonObject }
  /**
   * A response from the client: in a 2025 session, the answer to a server-to-client request
   * (elicitation, sampling) of a running call. 2026-07-28 servers send no requests, so there nothing awaits one.
   */
  | { kind: 'response'; id?: RequestId; response: ClientResponse }
  | { kind: 'invalid'; error: McpError; id?: RequestId };

/**
 * The longest string id accepted, in characters. An id is echoed in every response and notification of
 * its request and kept while the call runs (cancellation, tasks, log lines): the common forms are far
 * shorter (a UUID is 36 characters, a ULID 26, a SHA-256 in hex 64), and 256 leaves room for a gateway
 * that joins several of them, while a client can no longer make the server hold and echo a megabyte.
 */
export const MAX_ID_LENGTH = 256;

/**
 * The JSON-RPC envelope rules both transports share: one object (no batches), `jsonrpc: "2.0"`,
 * a string `method`, object `params`, and a string or number `id` (none for a notification); a
 * numeric id must be one JSON numbers carry exactly (finite; an integer no larger than 2^53 - 1), a
 * string id at most `MAX_ID_LENGTH` characters. An id that breaks these is not echoed.
 */
export function classifyMessage(body: unknown): IncomingJsonRpc {
  if (Array.isArray(body)) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: JSON-RPC batches are not supported') };
  if (!isPlainObject(body)) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: the message must be a JSON-RPC object') };
  const id = (typeof body.id === 'string' && body.id.length <= MAX_ID_LENGTH) || (typeof body.id === 'number' && exactNumber(body.id)) ? body.id : undefined;
  if (body.jsonrpc !== '2.0') return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "jsonrpc" must be "2.0"'), id };
  if (typeof body.method !== 'string') {
    if ('result' in body || 'error' in body) return { kind: 'response', id, response: { id, result: body.result, error: body.error } };
    return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "method" must be a string'), id };
  }
  if (body.params !== undefined && !isPlainObject(body.params)) {
    return { kind: 'invalid', error: new InvalidParamsError('Invalid params: "params" must be an object', undefined, 400), id };
  }
  const params = body.params as JsonObject | undefined;
  if (!('id' in body)) return { kind: 'notification', method: body.method, params };
  if (typeof body.id === 'number' && id === undefined) {
    return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: a numeric "id" must be finite, and an integer id at most 2^53 - 1') };
  }
  if (typeof body.id === 'string' && id === undefined) {
    return { kind: 'invalid', error: new InvalidRequestError(`Invalid Request: a string "id" must be at most ${MAX_ID_LENGTH} characters`) };
  }
  if (id === undefined) return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: "id" must be a string or a number') };
  return { kind: 'request', request: { jsonrpc: '2.0', id, method: body.method, params } };
}

/** A parsed id that the JSON text carried exactly: `1e400` became Infinity, `2^64 + 1` lost its last digits. */
function exactNumber(id: number): boolean {
  return Number.isFinite(id) && (!Number.isInteger(id) || Number.isSafeInteger(id));
}
