import type { Unsubscribable } from 'rxjs';
import type { McpCall } from '../context/mcp-call.js';
import type { ProgressSink } from '../progress/index.js';
import type { RequestMeta } from '../protocol/request-meta.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../protocol/wire.types.js';
import type { EraCall, OutboundMessage, TransportFacts } from './call-era.js';
import type { Cancellable } from './in-flight-requests.js';
import { progressSinkFor } from './progress-sink.js';

/** Where `McpDispatcher.serve()` sends a request's messages: its notifications, then its response, then `complete`. @internal */
export interface OutboundSink {
  next(outbound: OutboundMessage): void;
  complete(): void;
}

/** What `withCallTimeout` aborts when the time is up. */
export interface Abortable {
  abort(reason: unknown): void;
}

/**
 * One request the dispatcher serves: what the era's steps use of it (`EraCall`), how it ends (its
 * response, a cancel, the client going away) and where its messages go. A class, not a handful of
 * closures, because every request makes one. Its AbortController is made when first needed (a handler
 * reads the signal, or the call is aborted): most calls end without either.
 */
export class ServedCall implements EraCall, Cancellable, Abortable, Unsubscribable {
  readonly params: JsonObject;
  private controller?: AbortController;
  private settled = false;
  /** Ends the in-flight tracking (`notifications/cancelled`), once. */
  private untrack?: () => void;

  constructor(
    readonly request: JsonRpcRequest,
    private readonly sink: OutboundSink,
  ) {
    this.params = (request.params ?? {}) as JsonObject;
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  /** Made now when nobody read the signal yet, so a later reader sees it aborted. */
  abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }

  tracked(untrack: () => void): void {
    this.untrack = untrack;
  }

  /** Writes on the call's own stream, until it ended. */
  emit(outbound: OutboundMessage): void {
    if (!this.settled) this.sink.next(outbound);
  }

  /** The call's response (or, after a cancel, nothing), then the end of its messages. */
  respond(outcome: OutboundMessage): void {
    this.forget();
    if (this.settled) return;
    this.settled = true;
    this.sink.next(outcome);
    this.sink.complete();
  }

  /** `notifications/cancelled`: the signal fires, and the call ends without a response. */
  cancel(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.abort(reason);
    this.sink.complete();
    this.forget();
  }

  /** The client went away: the signal fires, and nothing more is sent. */
  unsubscribe(): void {
    this.forget();
    if (this.settled) return;
    this.settled = true;
    this.abort(new Error('The client closed the response stream'));
  }

  private forget(): void {
    const untrack = this.untrack;
    this.untrack = undefined;
    untrack?.();
  }
}

/**
 * The McpCall a routed method gets (`@internal` to the module): the served call's request and signal,
 * the envelope its era read, and its way back to the client. Its signal is the served call's, read
 * only when asked for.
 */
export class RoutedCall implements McpCall {
  readonly request: JsonRpcRequest;
  readonly httpRequest: unknown;
  readonly progressSink: ProgressSink;

  constructor(
    private readonly served: ServedCall,
    readonly meta: RequestMeta,
    readonly notify: (notification: JsonRpcNotification) => void,
    private readonly transport: TransportFacts,
    readonly sessionId: string | undefined,
  ) {
    this.request = served.request;
    this.httpRequest = transport.httpRequest;
    this.progressSink = progressSinkFor(meta, notify);
  }

  get signal(): AbortSignal {
    return this.served.signal;
  }

  checkParamHeaders(args: unknown, mirrored: ReadonlyMap<string, string>): void {
    this.transport.checkParamHeaders?.(args, mirrored);
  }
}
