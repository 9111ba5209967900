import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { reportInternalError } from '../pipeline/call-pipeline.js';
import { InternalError, InvalidParamsError, isMcpError, MethodNotFoundError, UnsupportedProtocolVersionError } from '../protocol/mcp.error.js';
import { META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { parseRequestMeta, type RequestMeta } from '../protocol/request-meta.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Result } from '../protocol/wire.types.js';
import { classifyOutbound, McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { withCallTimeout } from './call-timeout.js';
import { InFlightRequests } from './in-flight-requests.js';
import { MethodTable, type MethodRoute } from './method-table.js';
import { progressSinkFor } from './progress-sink.js';

/** What the transport tells the dispatcher about one request. */
export interface TransportFacts {
  /** Checks transport headers against the body (HTTP); runs after `_meta` parsing, before version checks. */
  validate?(request: JsonRpcRequest, meta: RequestMeta): void;
  httpRequest?: unknown;
  /**
   * Lets `notifications/cancelled` with this scope cancel the request (stdio: one peer per pipe).
   * Without it the request cannot be cancelled by a notification: on HTTP any client could send one,
   * and closing the response stream is the cancel signal there.
   */
  cancellationScope?: string;
}

/** One message out: a notification on the request's stream, or the final response with its HTTP status. */
export type OutboundMessage =
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse; httpStatus: number };

/**
 * Routes one JSON-RPC request to the method family that declared it (`@RpcMethod()`) and returns
 * the outgoing messages as an Observable: request-scoped notifications first, the final response
 * last. Checks the envelope (`_meta`, protocol version), limits the call's time, and maps errors
 * to JSON-RPC errors. Unsubscribing (the client went away) aborts the call's signal.
 * @publicApi
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpModule');
  private readonly inFlight = new InFlightRequests();
  private readonly serverMeta: JsonObject;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly methods: MethodTable,
    private readonly telemetry: McpTelemetry,
  ) {
    this.serverMeta = { [META_SERVER_INFO]: settings.serverInfo };
  }

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
    return new Observable<OutboundMessage>((subscriber) => {
      const abort = new AbortController();
      let settled = false;
      const forget =
        transport.cancellationScope === undefined
          ? () => undefined
          : this.inFlight.track(transport.cancellationScope, request.id, {
              cancel: (reason) => {
                if (settled) return;
                settled = true;
                abort.abort(reason);
                subscriber.complete();
              },
            });
      const notify = (message: JsonRpcNotification) => {
        if (!settled && !subscriber.closed) subscriber.next({ kind: 'notification', message });
      };
      this.telemetry.instrument(request, () => this.run(request, transport, abort, notify), classifyOutbound, transport).then((outcome) => {
        forget();
        if (settled || subscriber.closed) return;
        settled = true;
        subscriber.next(outcome);
        subscriber.complete();
      });
      return () => {
        forget();
        if (!settled) {
          settled = true;
          abort.abort(new Error('The client closed the response stream'));
        }
      };
    });
  }

  private async run(
    request: JsonRpcRequest,
    transport: TransportFacts,
    abort: AbortController,
    notify: (message: JsonRpcNotification) => void,
  ): Promise<OutboundMessage> {
    try {
      const params = (request.params ?? {}) as JsonObject;
      const meta = parseRequestMeta(request.params);
      transport.validate?.(request, meta);
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(meta.protocolVersion)) throw new UnsupportedProtocolVersionError(meta.protocolVersion);
      const route = this.methods.get(request.method);
      if (!route) throw new MethodNotFoundError(request.method);
      if (route.inputRounds) this.checkInputResponses(params.inputResponses);
      const call: McpCall = {
        request,
        meta,
        signal: abort.signal,
        notify,
        progressSink: progressSinkFor(meta, notify),
        httpRequest: transport.httpRequest,
      };
      const result = await withCallTimeout(this.timeoutOf(route), abort, () => route.serve(call, params));
      const withMeta: Result = { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: withMeta }, httpStatus: 200 };
    } catch (error) {
      // Unexpected errors are logged once; the client gets a generic message with their reference.
      const mcpError = isMcpError(error) ? error : new InternalError(reportInternalError(this.logger, request.method, request.id, error));
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() }, httpStatus: mcpError.httpStatus };
    }
  }

  /** Listen streams are long-lived by design and never time out. */
  private timeoutOf(route: MethodRoute): number | undefined {
    return route.untimed ? undefined : this.settings.limits.callTimeoutMs;
  }

  private checkInputResponses(inputResponses: unknown): void {
    const max = this.settings.mrtr.maxInputResponses;
    if (inputResponses && typeof inputResponses === 'object' && Object.keys(inputResponses).length > max) {
      throw new InvalidParamsError(`Too many inputResponses: at most ${max} are accepted`);
    }
  }
}
