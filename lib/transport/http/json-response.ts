import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { McpError } from '../../protocol/mcp.error.js';
import type { RequestId } from '../../protocol/wire.types.js';
import { retryAfterHeader } from '../../store/store-limits.js';

/** Answers with one JSON body. Once the headers went out (an SSE stream began), it can only end the response. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers?: OutgoingHttpHeaders): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  const length = Buffer.byteLength(text);
  // The common answer (a result, no header of its own) is written without merging header objects.
  if (!headers && status !== 503 && status !== 429) res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': length });
  else res.writeHead(status, { ...retryAfterHeader(status, body), ...headers, 'Content-Type': 'application/json', 'Content-Length': length });
  res.end(text);
}

/** Answers a JSON-RPC error, with the request's id when it is known. */
export function writeJsonRpcError(res: ServerResponse, status: number, error: McpError, id?: RequestId, headers?: OutgoingHttpHeaders): void {
  writeJson(res, status, jsonRpcError(error, id), headers);
}

/** The JSON-RPC error message for `error`, with the request's id when it is known. */
export function jsonRpcError(error: McpError, id?: RequestId): { jsonrpc: '2.0'; id?: RequestId; error: ReturnType<McpError['toJsonRpc']> } {
  return { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: error.toJsonRpc() };
}
