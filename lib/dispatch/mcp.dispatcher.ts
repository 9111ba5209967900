import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { reportInternalError } from '../pipeline/call-pipeline.js';
import { InternalError, InvalidParamsError, isMcpError, MethodNotFoundError, UnsupportedProtocolVersionError } from '../protocol/mcp.error.js';
import { META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { parseRequestMeta, type RequestMeta } from '../protocol/request-meta.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { LegacySession } from '../session/legacy-session.js';
import { asLegacyWire, renderLegacyNotification, renderLegacyResult } from './legacy-renderer.js';
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
  /**
   * The 2025-era session the request belongs to (the transport opened it): the request has no
   * `_meta` envelope, its capabilities are the session's, and its result is rendered for 2025.
   */
  session?: LegacySession;
}

/** The methods both eras share, which a 2025 session may call (ping is answered by the dispatcher itself; 2025-only methods say `era: 'legacy'`). */
const LEGACY_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

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
        if (settled || subscriber.closed) return;
        subscriber.next({ kind: 'notification', message: transport.session ? renderLegacyNotification(message) : message });
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
    const session = transport.session;
    try {
      const params = (request.params ?? {}) as JsonObject;
      const meta = session ? sessionMeta(params, session) : parseRequestMeta(request.params);
      if (!session) {
        transport.validate?.(request, meta);
        if (!SUPPORTED_PROTOCOL_VERSIONS.includes(meta.protocolVersion)) throw new UnsupportedProtocolVersionError(meta.protocolVersion);
      } else if (request.method === 'ping') {
        // `{}` exactly: the 2025 suite counts the keys of a ping result.
        return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: asLegacyWire({}) }, httpStatus: 200 };
      }
      const route = this.methods.get(request.method);
      if (!route || !servesEra(route, session ? 'legacy' : 'modern')) throw new MethodNotFoundError(request.method);
      if (route.inputRounds && !session) this.checkInputResponses(params.inputResponses);
      const call: McpCall = {
        request,
        meta,
        signal: abort.signal,
        notify,
        progressSink: progressSinkFor(meta, notify),
        httpRequest: transport.httpRequest,
        session,
      };
      // A 2025 client answers no input rounds of ours: what it sent under those names is not taken.
      const served = session ? withoutInputRounds(params) : params;
      const result = await withCallTimeout(this.timeoutOf(route), abort, () => route.serve(call, served));
      const rendered: Result = session
        ? renderLegacyResult(request.method, result)
        : { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: rendered }, httpStatus: 200 };
    } catch (error) {
      // Unexpected errors are logged once; the client gets a generic message with their reference.
      const mcpError = isMcpError(error) ? error : new InternalError(reportInternalError(this.logger, request.method, request.id, error));
      // 2025 clients read JSON-RPC errors from a 200 response; a 4xx is a transport failure to them.
      const httpStatus = session ? 200 : mcpError.httpStatus;
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() }, httpStatus };
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

/** The envelope of a 2025 request: the session's version and capabilities, the request's own progress token. */
function sessionMeta(params: JsonObject, session: LegacySession): RequestMeta {
  const raw = isPlainObject(params._meta) ? params._meta : {};
  const progressToken = raw.progressToken;
  return {
    protocolVersion: session.protocolVersion,
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
    raw,
  };
}

function servesEra(route: MethodRoute, era: 'legacy' | 'modern'): boolean {
  const served = route.era ?? (LEGACY_METHODS.has(route.method) ? 'both' : 'modern');
  return served === 'both' || served === era;
}

function withoutInputRounds(params: JsonObject): JsonObject {
  if (!('inputResponses' in params) && !('requestState' in params)) return params;
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}
