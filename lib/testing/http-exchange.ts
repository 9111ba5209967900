import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, Result } from '../protocol/wire.types.js';
import { eventStreamData } from './event-stream.js';
import { McpClientError } from './mcp-client.error.js';

/** What one POST of a request hands back besides its result. */
export interface ExchangeHooks {
  /** Each notification on the request's stream, as it arrives. */
  onNotification?(notification: JsonRpcNotification): void;
  /** A request of the server on the stream (a 2025-era question): answered before the stream is read on. */
  onServerRequest?(request: JsonRpcRequest): Promise<void>;
  signal?: AbortSignal;
}

export interface ExchangeAnswer {
  result: Result;
  headers: Headers;
}

/**
 * POSTs one JSON-RPC request and reads its answer, a JSON body or an event stream (notifications
 * first, the response last). A JSON-RPC error is thrown as McpClientError; an answer that is not
 * JSON-RPC at all (a proxy's page, an empty body) as an Error naming the status.
 */
export async function exchange(url: string, request: JsonRpcRequest, headers: Record<string, string>, hooks: ExchangeHooks = {}): Promise<ExchangeAnswer> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request), signal: hooks.signal });
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  let final: unknown;
  if (mediaType === 'text/event-stream' && response.body) {
    for await (const data of eventStreamData(response.body)) {
      const message: unknown = JSON.parse(data);
      if (!isPlainObject(message)) continue;
      if ('result' in message || 'error' in message) {
        final = message;
        break;
      }
      if (typeof message.method !== 'string') continue;
      if ('id' in message) await hooks.onServerRequest?.(message as unknown as JsonRpcRequest);
      else hooks.onNotification?.(message as unknown as JsonRpcNotification);
    }
  } else {
    const text = await response.text();
    if (mediaType === 'application/json' && text !== '') final = JSON.parse(text);
    else throw new Error(`${request.method}: HTTP ${response.status} without a JSON-RPC answer (${mediaType || 'no content type'}) ${text.slice(0, 200)}`.trim());
  }
  if (!isPlainObject(final)) throw new Error(`${request.method}: HTTP ${response.status}, the stream ended without a response`);
  if (isPlainObject(final.error)) {
    throw new McpClientError(request.method, final.error as { code: number; message: string; data?: unknown }, response.status);
  }
  return { result: (final.result ?? {}) as Result, headers: response.headers };
}

/** The `Mcp-Param-{Name}` headers a tool's `x-mcp-header` properties ask to mirror. */
export function mirroredHeaders(inputSchema: JsonObject | undefined): Map<string, string> {
  const mirrored = new Map<string, string>();
  const properties = isPlainObject(inputSchema?.properties) ? inputSchema.properties : {};
  for (const [property, schema] of Object.entries(properties)) {
    if (isPlainObject(schema) && typeof schema['x-mcp-header'] === 'string') mirrored.set(property, schema['x-mcp-header']);
  }
  return mirrored;
}
