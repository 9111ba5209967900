import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable, type Unsubscribable } from 'rxjs';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_MODERN_ERA, MCP_SETTINGS } from '../mcp.constants.js';
import { asMcpError } from '../protocol/internal-error.js';
import { MethodNotFoundError } from '../protocol/mcp.error.js';
import type { RequestMeta } from '../protocol/request-meta.js';
import type { JsonObject, JsonRpcRequest, Result } from '../protocol/wire.types.js';
import { classifyOutbound, McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { withCallTimeout } from './call-timeout.js';
import type { CallEra, OutboundMessage, TransportFacts } from './call-era.js';
import { InFlightRequests } from './in-flight-requests.js';
import { MethodTable, type MethodRoute } from './method-table.js';
import { RoutedCall, ServedCall, type OutboundSink } from './served-call.js';

export type { OutboundMessage } from './call-era.js';
export type { OutboundSink } from './served-call.js';
export type { TransportFacts } from './call-era.js';

/**
 * Routes one JSON-RPC request to the method family that declared it (`@RpcMethod()`) and returns
 * the outgoing messages as an Observable: request-scoped notifications first, the final response
 * last. The request's era (a `CallEra`) reads its envelope, runs its input rounds and renders its
 * result; the dispatcher routes, limits the call's time, tracks it for cancellation, and maps errors
 * to JSON-RPC errors. Unsubscribing (the client went away) aborts the call's signal.
 * @publicApi
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpModule');

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    @Inject(MCP_MODERN_ERA) private readonly modern: CallEra,
    private readonly methods: MethodTable,
    private readonly telemetry: McpTelemetry,
    private readonly inFlight: InFlightRequests,
  ) {}

  /**
   * Acts on `notifications/cancelled` (its `params`): the in-flight requests with that `requestId`
   * from this scope have their signal fired, and no response is sent for them.
   */
  cancel(params: JsonObject | undefined, scope = ''): void {
    this.inFlight.cancel(params, scope);
  }

  /**
   * Serves one request. The Observable emits the request's notifications, then its response, then
   * completes; it completes without a response when the request is cancelled.
   */
  dispatch(request: JsonRpcRequest, transport: TransportFacts = {}): Observable<OutboundMessage> {
    return new Observable<OutboundMessage>((subscriber) => this.serve(request, transport, subscriber));
  }

  /**
   * `dispatch()` without the Observable, for the common call answered with one JSON body: the same
   * messages, in the same order, go to `sink`; `complete` ends the request (also cancelled, with no
   * response). Unsubscribing the returned call means the client went away: the call's signal fires.
   * @internal
   */
  serve(request: JsonRpcRequest, transport: TransportFacts, sink: OutboundSink): Unsubscribable {
    const call = new ServedCall(request, sink);
    // Untracked (no cancellation scope): nothing to forget. A 2025 session's scope is its sealed id,
    // which every instance knows; a stdio pipe's is this process's.
    const scope = transport.cancellationScope;
    if (scope !== undefined) call.tracked(this.inFlight.track(scope, request.id, call, scope === transport.era?.sessionId));
    this.telemetry
      .instrument(request, () => this.run(call, transport.era ?? this.modern, transport), classifyOutbound, transport)
      .then((outcome) => call.respond(outcome));
    return call;
  }

  private async run(call: ServedCall, era: CallEra, transport: TransportFacts): Promise<OutboundMessage> {
    const { request } = call;
    try {
      const meta = era.envelope(call, transport);
      const result = era.ownMethod(call) ?? (await this.route(call, era, meta, transport));
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: era.render(request.method, result) }, httpStatus: 200 };
    } catch (error) {
      // Once the client closed the stream or cancelled, a failure is its own doing, not a server
      // fault: one debug line, no stack (what an McpError says, a time-out for one, is still what it says).
      const mcpError = asMcpError(this.logger, request.method, request.id, error, call.signal);
      const { error: wire, httpStatus } = era.renderError(mcpError);
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: wire }, httpStatus };
    }
  }

  /** Not async: a refusal here is thrown to `run`'s catch, and the call's promise is the rounds'. */
  private route(call: ServedCall, era: CallEra, meta: RequestMeta, transport: TransportFacts): Promise<Result> {
    const route = this.methods.get(call.request.method);
    if (!route || !era.serves(route)) throw new MethodNotFoundError(call.request.method);
    const routed = new RoutedCall(call, meta, era.notifier(call), transport, era.sessionId);
    return era.rounds(route, call, (params) => withCallTimeout(this.timeoutOf(route), call, () => route.serve(routed, params)));
  }

  /** Listen streams are long-lived by design and never time out. */
  private timeoutOf(route: MethodRoute): number | undefined {
    return route.untimed ? undefined : this.settings.limits.callTimeoutMs;
  }
}
