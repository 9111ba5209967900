import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { ProgressSink } from '../progress/index.js';
import { InternalError, isMcpError, MethodNotFoundError, UnsupportedProtocolVersionError } from '../protocol/mcp.error.js';
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
import { SubscriptionsHandler } from './subscriptions.handler.js';
import { ToolsHandler } from './tools.handler.js';

/** What the transport tells the dispatcher about one request. */
export interface TransportFacts {
  /** Checks transport headers against the body (HTTP); runs after `_meta` parsing, before version checks. */
  validate?(request: JsonRpcRequest, meta: RequestMeta): void;
  httpRequest?: unknown;
}

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

  dispatch(request: JsonRpcRequest, transport: TransportFacts = {}): Observable<OutboundMessage> {
    return new Observable<OutboundMessage>((subscriber) => {
      const abort = new AbortController();
      let settled = false;
      const notify = (message: JsonRpcNotification) => {
        if (!settled && !subscriber.closed) subscriber.next({ kind: 'notification', message });
      };
      this.run(request, transport, abort.signal, notify).then((outcome) => {
        settled = true;
        if (subscriber.closed) return;
        subscriber.next(outcome);
        subscriber.complete();
      });
      return () => {
        if (!settled) abort.abort(new Error('The client closed the response stream'));
      };
    });
  }

  private async run(
    request: JsonRpcRequest,
    transport: TransportFacts,
    signal: AbortSignal,
    notify: (message: JsonRpcNotification) => void,
  ): Promise<OutboundMessage> {
    try {
      const params = (request.params ?? {}) as JsonObject;
      const meta = parseRequestMeta(request.params);
      transport.validate?.(request, meta);
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(meta.protocolVersion)) {
        throw new UnsupportedProtocolVersionError(meta.protocolVersion);
      }
      const handler = this.methods.get(request.method);
      if (!handler) throw new MethodNotFoundError(request.method);
      const call: McpCall = {
        request,
        meta,
        signal,
        notify,
        progressSink: this.progressSink(meta, notify),
        httpRequest: transport.httpRequest,
      };
      const result = await handler(call, params);
      const withMeta: Result = { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
      return { kind: 'response', message: { jsonrpc: '2.0', id: request.id, result: withMeta }, httpStatus: 200 };
    } catch (error) {
      const known = isMcpError(error) ? error : undefined;
      if (!known) {
        // Unexpected: logged once with the request id; the client gets a generic message, no internals.
        this.logger.error(`Unexpected error serving ${request.method} (request ${String(request.id)})`, error instanceof Error ? error.stack : String(error));
      }
      const mcpError = known ?? new InternalError();
      return {
        kind: 'response',
        message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() },
        httpStatus: mcpError.httpStatus,
      };
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
