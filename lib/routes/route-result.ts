import { StreamableFile } from '@nestjs/common';
import { isPlainObject } from '../protocol/json-value.js';
import type { CallToolResult } from '../protocol/wire.types.js';
import { ROUTE_RETURNED_STREAM } from './route-messages.js';

/**
 * A route's return value as a tool result: the JSON its REST response carries, as a text block, and as
 * `structuredContent` (an array or a single value is put under `result`, since structured content
 * is an object). A string is text, as REST sends it. Not the provider-tool mapping: a route's object
 * is data, never read as content blocks or a whole `CallToolResult`, whatever its fields are called.
 */
export function toRouteResult(value: unknown, source: string): CallToolResult {
  if (value instanceof StreamableFile || typeof (value as { pipe?: unknown } | null)?.pipe === 'function') throw new Error(ROUTE_RETURNED_STREAM(source));
  if (value === undefined || value === null) return { resultType: 'complete', content: [] };
  if (typeof value === 'string') return { resultType: 'complete', content: [{ type: 'text', text: value }] };
  const text = JSON.stringify(value);
  const json: unknown = JSON.parse(text);
  return { resultType: 'complete', content: [{ type: 'text', text }], structuredContent: isPlainObject(json) ? json : { result: json } };
}
