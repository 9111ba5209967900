import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { asMcpError } from '../protocol/internal-error.js';
import { InvalidParamsError, InvalidRequestError, isMcpError, MethodNotFoundError, UnsupportedProtocolVersionError } from '../protocol/mcp.error.js';
import { META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import type { ClientResponse } from '../protocol/json-rpc-envelope.js';
import { parseRequestMeta, type RequestMeta } from '../protocol/request-meta.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { LegacySession } from '../session/legacy-session.js';
import { asLegacyError, asLegacyWire, legacyInputParams, renderLegacyNotification, renderLegacyRequest, renderLegacyResult } from './legacy-renderer.js';
import type { InputRequests, InputRequiredResult, InputResponses, JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, Result } from '../protocol/wire.types.js';
import { ClientRequests } from './client-requests.js';
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

/**
 * One message out: a notification or (2025 sessions only) a server→client request on the request's
 * stream, or the final response with its HTTP status.
 */
export type OutboundMessage =
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'request'; message: JsonRpcRequest }
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
  /** The questions 2025 sessions were sent and whose answers are awaited. */
  private readonly clientRequests = new ClientRequests();
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
   * A JSON-RPC response a 2025 client sent (a separate POST, or a line on stdio): handed to the call
   * that awaits it in `session`. False when no request of that session awaits this id (answered,
   * timed out, its call ended, or it was never sent there).
   */
  answer(session: LegacySession, response: ClientResponse): boolean {
    return this.clientRequests.answer(session.id, response);
  }

  /** How many server→client requests await an answer (for tests and health checks). */
  get awaitedClientAnswers(): number {
    return this.clientRequests.size;
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
      const emit = (outbound: OutboundMessage) => {
        if (!settled && !subscriber.closed) subscriber.next(outbound);
      };
      const notify = transport.session ? legacyNotifier(emit) : (message: JsonRpcNotification) => emit({ kind: 'notification', message });
      this.telemetry.instrument(request, () => this.run(request, transport, abort, notify, emit), classifyOutbound, transport).then((outcome) => {
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
    emit: (outbound: OutboundMessage) => void,
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
      const result = session
        ? await this.serveLegacyRounds(route, call, params, session, abort, emit)
        : await withCallTimeout(this.timeoutOf(route), abort, () => route.serve(call, params));
      const rendered: Result = session
        ? renderLegacyResult(request.method, result)
        : { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: rendered }, httpStatus: 200 };
    } catch (error) {
      if (session && abort.signal.aborted && !isMcpError(error)) {
        // The client closed the stream or cancelled while a question was pending: its own doing, not a
        // server fault to log, and nothing is sent for the call.
        return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: new InvalidRequestError('The request was cancelled').toJsonRpc() }, httpStatus: 200 };
      }
      // Unexpected errors are logged once; the client gets a generic message with their reference.
      const mcpError = asMcpError(this.logger, request.method, request.id, error);
      if (session) {
        // 2025 clients read JSON-RPC errors from a 200 response; a 4xx is a transport failure to them.
        return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: asLegacyError(mcpError).toJsonRpc() }, httpStatus: 200 };
      }
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() }, httpStatus: mcpError.httpStatus };
    }
  }

  /**
   * A 2025 call: the handler runs as in 2026-07-28; when it returns `input_required` (it asked a
   * question), each input request goes to the client as a server→client request on this call's
   * stream, and the handler is run again with the answers as `inputResponses` and the requestState
   * it returned: the MRTR replay, run by the server, one call from the client's view. What the client
   * itself sent under those names is not taken (a 2025 client answers no rounds of ours).
   */
  private async serveLegacyRounds(
    route: MethodRoute,
    call: McpCall,
    params: JsonObject,
    session: LegacySession,
    abort: AbortController,
    emit: (outbound: OutboundMessage) => void,
  ): Promise<Result> {
    const base = withoutInputRounds(params);
    let served = base;
    for (let round = 0; ; round++) {
      const result = await withCallTimeout(this.timeoutOf(route), abort, () => route.serve(call, served));
      // Past the last round the result stays input_required and is rendered as "input unavailable".
      if (result.resultType !== 'input_required' || !route.inputRounds || round === MAX_LEGACY_ROUNDS) return result;
      const { inputRequests, requestState } = result as InputRequiredResult;
      const inputResponses = await this.askClient(inputRequests ?? {}, session, abort.signal, emit);
      served = { ...base, inputResponses, ...(requestState !== undefined ? { requestState } : {}) };
    }
  }

  /** Sends one round's questions together; the first failure withdraws the others. */
  private async askClient(requests: InputRequests, session: LegacySession, callSignal: AbortSignal, emit: (outbound: OutboundMessage) => void): Promise<InputResponses> {
    const round = new AbortController();
    const stop = () => round.abort(callSignal.reason);
    callSignal.addEventListener('abort', stop, { once: true });
    const options = {
      scope: session.id,
      signal: round.signal,
      timeoutMs: this.settings.session.inputTimeoutMs,
      send: (message: JsonRpcRequest | JsonRpcNotification) =>
        emit('id' in message ? { kind: 'request', message: renderLegacyRequest(message) } : { kind: 'notification', message }),
    };
    try {
      const answers = await Promise.all(
        Object.entries(requests).map(async ([key, input]) => [key, await this.clientRequests.request(input.method, legacyInputParams(input), options)] as const),
      );
      return Object.fromEntries(answers) as InputResponses;
    } catch (error) {
      round.abort(error);
      throw error;
    } finally {
      callSignal.removeEventListener('abort', stop);
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

/** Each method declares its era with `@RpcMethod()`; ping is answered by the dispatcher itself. */
function servesEra(route: MethodRoute, era: 'legacy' | 'modern'): boolean {
  const served = route.era ?? 'modern';
  return served === 'both' || served === era;
}

/** Rounds of questions one 2025 call may ask (a client that keeps answering malformed input is not asked forever). */
const MAX_LEGACY_ROUNDS = 16;

/**
 * Notifications of a 2025 call, rendered for 2025. Progress must increase (2025 progress §Behavior),
 * and a re-run handler replays its code up to the last question: progress it already reported is not sent twice.
 */
function legacyNotifier(emit: (outbound: OutboundMessage) => void): (message: JsonRpcNotification) => void {
  let lastProgress = -Infinity;
  return (message) => {
    if (message.method === 'notifications/progress') {
      const progress = message.params?.progress;
      if (typeof progress === 'number') {
        if (progress <= lastProgress) return;
        lastProgress = progress;
      }
    }
    emit({ kind: 'notification', message: renderLegacyNotification(message) });
  };
}

function withoutInputRounds(params: JsonObject): JsonObject {
  if (!('inputResponses' in params) && !('requestState' in params)) return params;
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}
