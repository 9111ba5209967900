import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { ProgressSink } from '../progress/index.js';
import {
  InternalError,
  InvalidParamsError,
  isMcpError,
  CallTimeoutError,
  MethodNotFoundError,
  UnsupportedProtocolVersionError,
} from '../protocol/mcp.error.js';
import { META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { parseRequestMeta, type RequestMeta } from '../protocol/request-meta.js';
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  Result,
  ServerCapabilities,
} from '../protocol/wire.types.js';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { CompletionHandler } from './completion.handler.js';
import { PromptsHandler } from './prompts.handler.js';
import { ResourcesHandler } from './resources.handler.js';
import { reportInternalError } from './handler-run.js';
import { SubscriptionsHandler } from './subscriptions.handler.js';
import { ToolsHandler } from './tools.handler.js';
import { classifyOutbound, McpTelemetry } from '../telemetry/mcp-telemetry.js';

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

/** A request in flight: how to cancel it. */
interface InFlight {
  cancel(reason: Error): void;
}

const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** One message out: a notification on the request's stream, or the final response with its HTTP status. */
export type OutboundMessage =
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse; httpStatus: number };

type MethodHandler = (call: McpCall, params: JsonObject) => Result | Promise<Result>;

/**
 * Routes one JSON-RPC request to its method family and returns the outgoing messages as an
 * Observable: request-scoped notifications first, the final response last. Unsubscribing (the
 * client went away) aborts the call's signal.
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpModule');
  private readonly methods = new Map<string, MethodHandler>();
  private readonly serverMeta: JsonObject;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
    tools: ToolsHandler,
    prompts: PromptsHandler,
    resources: ResourcesHandler,
    completion: CompletionHandler,
    subscriptions: SubscriptionsHandler,
    private readonly telemetry: McpTelemetry,
  ) {
    this.serverMeta = { [META_SERVER_INFO]: settings.serverInfo };
    this.register('server/discover', () => this.discover());
    this.register('tools/list', (call, params) => tools.list(call, params));
    this.register('tools/call', (call, params) => tools.call(call, params));
    this.register('prompts/list', (call, params) => prompts.list(call, params));
    this.register('prompts/get', (call, params) => prompts.get(call, params));
    this.register('resources/list', (call, params) => resources.list(call, params));
    this.register('resources/templates/list', (call, params) => resources.listTemplates(call, params));
    this.register('resources/read', (call, params) => resources.read(call, params));
    this.register('completion/complete', (call, params) => {
      // Un-advertised capability → method not found, as the spec asks.
      if (!this.registry.hasCompletions) throw new MethodNotFoundError('completion/complete');
      return completion.complete(call, params);
    });
    this.register('subscriptions/listen', (call, params) => subscriptions.listen(call, params));
  }

  /** Adds a method family handler (prompts, resources, … register themselves here). @internal */
  register(method: string, handler: MethodHandler): void {
    this.methods.set(method, handler);
  }

  /** What `server/discover` advertises; list-changed and subscribe are real (see subscriptions/listen). */
  capabilities(): ServerCapabilities {
    return {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      ...(this.registry.hasCompletions ? { completions: {} } : {}),
    };
  }

  /** Requests in flight, by cancellation scope and id (for `notifications/cancelled`). */
  private readonly inFlight = new Map<string, Set<InFlight>>();


  /**
   * Acts on `notifications/cancelled` (its `params`): the in-flight requests with that `requestId`
   * from this scope have their signal fired, and no response is sent for them. Unknown or
   * malformed ids are ignored, as the spec asks of notifications.
   */
  cancel(params: JsonObject | undefined, scope = ''): void {
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the client';
    for (const call of this.inFlight.get(inFlightKey(scope, requestId)) ?? []) call.cancel(new Error(reason));
  }

  /**
   * Serves one request. The Observable emits the request's notifications, then its response, then
   * completes; it completes without a response when the request is cancelled. Unsubscribing (the
   * client went away) aborts the call's signal.
   */
  dispatch(request: JsonRpcRequest, transport: TransportFacts = {}): Observable<OutboundMessage> {
    return new Observable<OutboundMessage>((subscriber) => {
      const abort = new AbortController();
      let settled = false;
      const key = inFlightKey(transport.cancellationScope ?? '', request.id);
      const entry: InFlight = {
        cancel: (reason) => {
          if (settled) return;
          settled = true;
          abort.abort(reason);
          subscriber.complete();
        },
      };
      const calls = this.inFlight.get(key) ?? new Set<InFlight>();
      if (transport.cancellationScope !== undefined) {
        calls.add(entry);
        this.inFlight.set(key, calls);
      }
      const forget = () => {
        calls.delete(entry);
        if (calls.size === 0 && this.inFlight.get(key) === calls) this.inFlight.delete(key);
      };
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
    const signal = abort.signal;
    try {
      const params = (request.params ?? {}) as JsonObject;
      const meta = parseRequestMeta(request.params);
      transport.validate?.(request, meta);
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(meta.protocolVersion)) {
        throw new UnsupportedProtocolVersionError(meta.protocolVersion);
      }
      const handler = this.methods.get(request.method);
      if (!handler) throw new MethodNotFoundError(request.method);
      if (MRTR_METHODS.has(request.method)) this.checkInputResponses(params.inputResponses);
      const call: McpCall = {
        request,
        meta,
        signal,
        notify,
        progressSink: this.progressSink(meta, notify),
        httpRequest: transport.httpRequest,
      };
      const result = await this.withTimeout(request.method, abort, () => handler(call, params));
      const withMeta: Result = { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: withMeta }, httpStatus: 200 };
    } catch (error) {
      // Unexpected errors are logged once; the client gets a generic message with their reference.
      const mcpError = isMcpError(error) ? error : new InternalError(reportInternalError(this.logger, request.method, request.id, error));
      return {
        kind: 'response',
        message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() },
        httpStatus: mcpError.httpStatus,
      };
    }
  }

  /**
   * Races a handler against `mocapi.limits.call-timeout` (off by default). On timeout the call's
   * signal fires, so cooperative handlers stop, and the client gets -31008. Listen streams are
   * long-lived by design and never time out.
   */
  private async withTimeout<T>(method: string, abort: AbortController, run: () => T | Promise<T>): Promise<T> {
    const limit = this.settings.limits.callTimeoutMs;
    if (limit === undefined || method === 'subscriptions/listen') return run();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new CallTimeoutError(limit);
        abort.abort(error);
        reject(error);
      }, limit);
    });
    try {
      return await Promise.race([Promise.resolve().then(run), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private checkInputResponses(inputResponses: unknown): void {
    const max = this.settings.mrtr.maxInputResponses;
    if (inputResponses && typeof inputResponses === 'object' && Object.keys(inputResponses).length > max) {
      throw new InvalidParamsError(`Too many inputResponses: at most ${max} are accepted`);
    }
  }

  private progressSink(meta: RequestMeta, notify: (message: JsonRpcNotification) => void): ProgressSink {
    const progressToken = meta.progressToken;
    if (progressToken === undefined) return () => undefined;
    return (progress, total, message) =>
      notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
  }

  private discover(): Result {
    return {
      resultType: 'complete',
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: this.capabilities(),
      ...(this.settings.instructions ? { instructions: this.settings.instructions } : {}),
      ttlMs: this.settings.cache.ttlMs,
      cacheScope: this.settings.cache.cacheScope,
    };
  }
}

function inFlightKey(scope: string, id: string | number): string {
  return `${scope}\u0000${typeof id}:${id}`;
}
