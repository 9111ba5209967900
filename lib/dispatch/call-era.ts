import type { McpError } from '../protocol/mcp.error.js';
import type { RequestMeta } from '../protocol/request-meta.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Result } from '../protocol/wire.types.js';
import type { MethodRoute } from './method-table.js';

/**
 * One message out: a notification or (2025 sessions only) a server→client request on the request's
 * stream, or the final response with its HTTP status.
 */
export type OutboundMessage =
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'response'; message: JsonRpcResponse; httpStatus: number };

/** What the era's steps may use of the call being served. */
export interface EraCall {
  request: JsonRpcRequest;
  params: JsonObject;
  signal: AbortSignal;
  /** Writes on the call's own stream (a method: call it on the call). */
  emit(outbound: OutboundMessage): void;
}

/** What the transport tells the dispatcher about one request. */
export interface TransportFacts {
  /** Checks transport headers against the body (HTTP); runs after `_meta` parsing, before version checks. */
  validate?(request: JsonRpcRequest, meta: RequestMeta): void;
  /**
   * Checks a tool's `Mcp-Param-*` headers against the arguments they mirror (HTTP). Runs once the tool
   * is found and visible to the caller: a tool its list hides cannot be told apart by them.
   */
  checkParamHeaders?(args: unknown, mirrored: ReadonlyMap<string, string>): void;
  httpRequest?: unknown;
  /**
   * Lets `notifications/cancelled` with this scope cancel the request (stdio: one peer per pipe; a
   * 2025 session). Without it the request cannot be cancelled by a notification: on HTTP any client
   * could send one, and closing the response stream is the cancel signal there.
   */
  cancellationScope?: string;
  /** The era that frames the request (`era/`); 2026-07-28's when absent. */
  era?: CallEra;
}

/**
 * How one protocol era frames a call: its envelope, its own methods, its input rounds, its wire. The
 * dispatcher asks the era it is handed at each of these points and never which era it is; the two
 * implementations (2026-07-28 requests, 2025 sessions) live in `era/`, above the dispatcher.
 */
export interface CallEra {
  /** Whether it may route to this method (each declares the era it serves with `@RpcMethod({ era })`). */
  serves(route: MethodRoute): boolean;
  /** The 2025 session the call belongs to (`ctx.sessionId`); none for 2026-07-28 requests. */
  readonly sessionId?: string;
  /**
   * The request's envelope (version, client capabilities, progress token); throws an McpError to
   * refuse it. The transport's `validate` (HTTP headers against the body) runs once the envelope is read.
   */
  envelope(call: EraCall, transport?: TransportFacts): RequestMeta;
  /** Answers a method the era serves itself (2025: ping, resource subscriptions); undefined for the rest. */
  ownMethod(call: EraCall): Result | undefined;
  /** The call's notifications as the era sends them. */
  notifier(call: EraCall): (message: JsonRpcNotification) => void;
  /**
   * Runs the routed method through the era's input rounds: 2026-07-28 answers `input_required` to
   * the client; a 2025 session asks the client on the stream and runs the method again. `serve` runs
   * the method once, within the call's time limit.
   */
  rounds(route: MethodRoute, call: EraCall, serve: (params: JsonObject) => Promise<Result>): Promise<Result>;
  /** A result as the era's wire has it. */
  render(method: string, result: Result): Result;
  /** An error as the era's wire has it, with the HTTP status of its response. */
  renderError(error: McpError): { error: JsonRpcErrorObject; httpStatus: number };
}
