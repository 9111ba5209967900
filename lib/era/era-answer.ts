import type { Observable } from 'rxjs';
import type { CallEra } from '../dispatch/call-era.js';
import type { McpError } from '../protocol/mcp.error.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../protocol/wire.types.js';

/**
 * What the transport does with one posted message, as the era room decides it; the transport only
 * writes it out (JSON, SSE, the status named here).
 * - `stateless`: a self-contained request or notification (every request carries its envelope): the
 *   transport serves it with its own checks.
 * - `refused`: a JSON-RPC error with this status; `unavailable`: 503 while the server drains.
 * - `opened`: a new session's answer, its id to send back.
 * - `accepted`: 202, nothing to answer; `cancel`: 202 once `notifications/cancelled` is handed to the dispatcher in `scope`.
 * - `serve`: a request to dispatch, framed by `era`, cancellable in `scope`.
 */
export type PostedAnswer =
  | { kind: 'stateless' }
  | { kind: 'refused'; status: number; error: McpError; id?: RequestId }
  | { kind: 'unavailable'; id: RequestId }
  | { kind: 'opened'; status: number; message: JsonRpcResponse; sessionId?: string }
  | { kind: 'accepted' }
  | { kind: 'cancel'; params: JsonObject | undefined; scope: string }
  | { kind: 'serve'; request: JsonRpcRequest; era: CallEra; scope: string };

/** The answer to a session's GET: refused with this status, or its notifications to stream. */
export type StreamAnswer = { kind: 'refused'; status: number; error: McpError } | { kind: 'stream'; notifications: Observable<JsonRpcNotification> };

/** What the era room asks of a transport: whether it is draining (new work is refused 503). */
export interface Draining {
  readonly draining: boolean;
}
