import type { RequestMeta } from '../protocol/request-meta.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/wire.types.js';
import type { ProgressSink } from '../progress/index.js';

/**
 * One JSON-RPC request being served: its envelope, its cancellation signal and the way back to
 * the client for request-scoped notifications. Made by the dispatcher. @internal
 */
export interface McpCall {
  request: JsonRpcRequest;
  meta: RequestMeta;
  signal: AbortSignal;
  /** Sends a notification on this request's own response stream. */
  notify(notification: JsonRpcNotification): void;
  /** Sends `notifications/progress` when the request carried a progressToken, else does nothing. */
  progressSink: ProgressSink;
  /**
   * Set while a tool with `taskStart: 'explicit'` runs the synchronous part of a task call: ends it
   * (`ctx.startTask()`). Absent elsewhere, where `startTask()` does nothing.
   */
  startTask?: () => never;
  /** The HTTP request when served over HTTP. */
  httpRequest?: unknown;
  /** Checks a found tool's `Mcp-Param-*` headers (HTTP, 2026-07-28); see TransportFacts. */
  checkParamHeaders?(args: unknown, mirrored: ReadonlyMap<string, string>): void;
  /** The 2025 session the request belongs to; absent for 2026-07-28 requests. */
  sessionId?: string;
}

/**
 * `call` with `startTask` set, for the synchronous part of an explicit task. Not a spread: the
 * dispatcher's call reads its signal through a getter, which a spread would not carry.
 */
export function withStartTask(call: McpCall, startTask: () => never): McpCall {
  return Object.assign(Object.create(call) as McpCall, { startTask });
}
