import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import type { McpSettings } from '../../config/mcp-settings.js';
import { McpDispatcher, type OutboundMessage } from '../../server/mcp.dispatcher.js';
import { InvalidRequestError, McpError, ParseError } from '../../protocol/mcp.error.js';
import { classifyMessage, type IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../protocol/wire.types.js';
import type { RequestMeta } from '../../protocol/request-meta.js';
import { OriginPolicy } from './origin.policy.js';
import { validateParamHeaders, validateStandardHeaders } from './request-headers.js';
import { McpRegistry } from '../../discovery/mcp.registry.js';

export type HttpRequest = IncomingMessage & { body?: unknown };

const KEEP_ALIVE_MS = 15_000;

/** The errors express's body parsers raise carry a `type`. */
type BodyParserError = { type?: unknown } | undefined;

/**
 * The Streamable HTTP edge (2026-07-28): checks origin, `Accept`, content type and the JSON-RPC
 * envelope, hands the request to the dispatcher, and writes its Observable out as one JSON body,
 * or as an SSE stream once a notification comes before the response.
 */
@Injectable()
export class McpHttpTransport implements OnModuleInit, OnModuleDestroy {
  private draining = false;
  /** Requests being answered, listen streams excepted (they end at shutdown, not finish). */
  private serving = 0;

  constructor(
    private readonly dispatcher: McpDispatcher,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly adapterHost: HttpAdapterHost,
    private readonly registry: McpRegistry,
    private readonly origins: OriginPolicy,
  ) {}

  /**
   * The application's body parser runs before any route, so a malformed or oversized body on the
   * MCP endpoint would get Nest's generic answer. This error middleware, added before Nest's own
   * exception handler, answers it as JSON-RPC instead (-32700 / 413).
   */
  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    const endpoint = this.settings.endpoint;
    adapter.use((error: BodyParserError, req: HttpRequest, res: ServerResponse, next: (error?: unknown) => void) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST' || !path.endsWith(endpoint) || typeof error?.type !== 'string') return next(error);
      if (error.type === 'entity.parse.failed') return writeError(res, 400, new ParseError());
      if (error.type === 'entity.too.large') {
        return writeError(res, 413, new InvalidRequestError('Payload Too Large: the request body exceeds the size limit'));
      }
      return next(error);
    });
  }

  handlePost(req: HttpRequest, res: ServerResponse): void {
    if (!this.origins.isAllowed(header(req, 'origin'), header(req, 'host'))) {
      return writeError(res, 403, new InvalidRequestError('Forbidden: this Origin is not allowed to call the MCP endpoint'));
    }
    if (!acceptsBoth(header(req, 'accept'))) {
      return writeError(res, 406, new InvalidRequestError('Not Acceptable: the Accept header must offer application/json and text/event-stream'));
    }
    const contentType = header(req, 'content-type')?.split(';')[0].trim().toLowerCase();
    if (contentType !== 'application/json') {
      return writeError(res, 415, new InvalidRequestError('Unsupported Media Type: the body must be application/json'));
    }
    const { maxBodyBytes, maxJsonDepth } = this.settings.limits;
    // A chunked body has no Content-Length: measure what was parsed instead (rare, so the cost is fine).
    const declared = header(req, 'content-length');
    const size = declared !== undefined ? Number(declared) : req.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(req.body));
    if (size > maxBodyBytes) {
      return writeError(res, 413, new InvalidRequestError(`Payload Too Large: the body exceeds ${maxBodyBytes} bytes`));
    }
    // A body of n bytes cannot nest deeper than n/2 levels: short bodies need no walk.
    const length = Number(header(req, 'content-length') ?? Infinity);
    if (length > maxJsonDepth * 2 && exceedsDepth(req.body, maxJsonDepth)) {
      return writeError(res, 400, new InvalidRequestError(`Invalid Request: the body is nested deeper than ${maxJsonDepth} levels`));
    }
    const incoming = classify(req.body);
    switch (incoming.kind) {
      case 'invalid':
        return writeError(res, incoming.error.httpStatus, incoming.error, incoming.id);
      case 'notification':
        if (incoming.method === 'notifications/cancelled') {
          this.dispatcher.cancel(incoming.params, cancellationScope(req));
        }
        res.statusCode = 202;
        res.end();
        return;
      case 'request':
        if (this.draining) {
          res.setHeader('Retry-After', '1');
          return writeError(res, 503, new McpError(-32002, 'Service Unavailable: the server is shutting down'), incoming.request.id);
        }
        return this.serve(incoming.request, req, res);
    }
  }

  /**
   * Graceful shutdown (with `enableShutdownHooks()`): new requests get 503 while the calls in
   * flight finish, up to `mocapi.limits.shutdown-timeout`. Listen streams are ended separately.
   */
  async onModuleDestroy(): Promise<void> {
    this.draining = true;
    const deadline = Date.now() + this.settings.limits.shutdownTimeoutMs;
    while (this.serving > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** GET and DELETE are not part of 2026-07-28 (no standalone stream, no sessions). */
  handleOtherMethod(res: ServerResponse): void {
    res.setHeader('Allow', 'POST');
    writeError(res, 405, new InvalidRequestError('Method Not Allowed: the MCP endpoint accepts POST only'));
  }

  private validateHeaders(req: HttpRequest, request: JsonRpcRequest, meta: RequestMeta): void {
    validateStandardHeaders(req.headers, request, meta);
    if (request.method !== 'tools/call') return;
    const mirrored = this.registry.getTool(request.params?.name as string)?.headerParams;
    if (mirrored) validateParamHeaders(req.headers, request.params?.arguments, mirrored);
  }

  private serve(request: JsonRpcRequest, req: HttpRequest, res: ServerResponse): void {
    let streaming = false;
    let subscription: Subscription | undefined = undefined;
    let keepAlive: NodeJS.Timeout | undefined;
    const counted = request.method !== 'subscriptions/listen';
    if (counted) this.serving++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(keepAlive);
      if (counted) this.serving--;
    };
    res.on('close', () => {
      finish();
      if (!res.writableFinished) subscription?.unsubscribe();
    });
    subscription = this.dispatcher
      .dispatch(request, {
        validate: (body, meta) => this.validateHeaders(req, body, meta),
        httpRequest: req,
        cancellationScope: cancellationScope(req),
      })
      .subscribe({
        complete: () => {
          finish();
          // Cancelled (notifications/cancelled): nothing more is sent for this request.
          if (!res.writableEnded) {
            if (!res.headersSent) res.statusCode = 204;
            res.end();
          }
        },
        next: (outbound: OutboundMessage) => {
          if (res.destroyed) return;
          if (outbound.kind === 'response' && !streaming) {
            writeJson(res, outbound.httpStatus, outbound.message);
            return;
          }
          if (!streaming) {
            streaming = true;
            res.writeHead(200, {
              'Content-Type': 'text/event-stream',
              'Cache-Control': 'no-cache, no-transform',
              Connection: 'keep-alive',
              'X-Accel-Buffering': 'no',
            });
            // Long-lived streams (subscriptions/listen) get comment keep-alives so proxies keep them open.
            keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
            keepAlive.unref();
          }
          res.write(sseEvent(outbound.message));
          if (outbound.kind === 'response') {
            clearInterval(keepAlive);
            res.end();
          }
        },
      });
  }
}

/** Cancellations apply to requests from the same peer: JSON-RPC ids are only unique per client. */
function cancellationScope(req: IncomingMessage): string {
  return req.socket?.remoteAddress ?? '';
}

/** True when `value` nests deeper than `max` (iterative, so hostile input cannot overflow the stack). */
function exceedsDepth(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function acceptsBoth(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  const offers = (type: string) => types.includes(type) || types.includes(`${type.split('/')[0]}/*`) || types.includes('*/*');
  return offers('application/json') && offers('text/event-stream');
}

/** Sorts a POST body; a posted response is refused, since a POST must carry a request or notification. */
function classify(body: unknown): Exclude<IncomingJsonRpc, { kind: 'response' }> {
  const incoming = classifyMessage(body);
  if (incoming.kind !== 'response') return incoming;
  return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: clients must not send JSON-RPC responses'), id: incoming.id };
}

function sseEvent(message: JsonRpcMessage): string {
  // One JSON message per event, on one `data:` line (JSON.stringify never emits raw newlines).
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function writeJson(res: ServerResponse, status: number, message: JsonRpcMessage): void {
  const body = JSON.stringify(message);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function writeError(res: ServerResponse, status: number, error: McpError, id?: RequestId): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  writeJson(res, status, { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error: error.toJsonRpc() });
}

