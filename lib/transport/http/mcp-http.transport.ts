import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import type { McpSettings } from '../../config/mcp-settings.js';
import { McpDispatcher, type OutboundMessage } from '../../dispatch/mcp.dispatcher.js';
import { InvalidRequestError, ShuttingDownError } from '../../protocol/mcp.error.js';
import { classifyMessage, type IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../../protocol/wire.types.js';
import type { RequestMeta } from '../../protocol/request-meta.js';
import { writeJson, writeJsonRpcError } from './json-response.js';
import { OriginPolicy } from './origin.policy.js';
import { validateParamHeaders, validateStandardHeaders } from './request-headers.js';
import { deferContinue, expectsContinue, placeAheadOfBodyParsers, readJsonBody, refusalBeforeBody } from './request-body.js';
import { McpRegistry } from '../../registry/mcp.registry.js';

export type HttpRequest = IncomingMessage & { body?: unknown };

const KEEP_ALIVE_MS = 15_000;

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
   * Puts the endpoint's checks and body reading ahead of the application's body parsers, so Origin,
   * Host, media type and size are judged before a byte of the body is read, and a body is read only
   * up to `limits.maxBodyBytes`. Sets the server's request and header timeouts too.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    const { requestTimeoutMs, headersTimeoutMs } = this.settings.limits;
    const server = adapter.getHttpServer() as Server | undefined;
    if (server) {
      server.requestTimeout = requestTimeoutMs;
      server.headersTimeout = headersTimeoutMs;
      deferContinue(server, (req) => this.isEndpoint(req));
    }
    placeAheadOfBodyParsers(adapter.getInstance(), (req, res, next) => {
      if (req.method !== 'POST' || !this.isEndpoint(req)) return next();
      void this.readBody(req, res).then((read) => read && next(), next);
    });
  }

  /**
   * Matches as Express routes (case-insensitive, one optional trailing slash): a path the controller
   * serves but this check missed would reach it with no Origin, size or header checks.
   */
  private isEndpoint(req: IncomingMessage): boolean {
    const path = (req.url ?? '').split('?')[0].toLowerCase();
    const endpoint = this.settings.endpoint.toLowerCase();
    return path.endsWith(endpoint) || path.endsWith(`${endpoint}/`);
  }

  /** Sets `req.body` (so the application's parsers skip it) and returns true, or answers the refusal. */
  private async readBody(req: HttpRequest, res: ServerResponse): Promise<boolean> {
    const { maxBodyBytes, maxJsonDepth } = this.settings.limits;
    const refusal = refusalBeforeBody(req, this.origins, maxBodyBytes);
    if (!refusal && expectsContinue(req)) res.writeContinue();
    const read = refusal ?? (await readJsonBody(req, { maxBodyBytes, maxJsonDepth }));
    if ('body' in read) {
      req.body = read.body;
      return true;
    }
    // Closing the connection is what stops Node from reading the rest of an unread body.
    if (!req.complete) res.setHeader('Connection', 'close');
    writeJsonRpcError(res, read.status, read.error);
    return false;
  }

  handlePost(req: HttpRequest, res: ServerResponse): void {
    const incoming = classify(req.body);
    switch (incoming.kind) {
      case 'invalid':
        return writeJsonRpcError(res, incoming.error.httpStatus, incoming.error, incoming.id);
      case 'notification':
        // Nothing to act on: on HTTP, closing the response stream is what cancels a request, so a
        // notifications/cancelled from anyone cannot touch another client's call.
        res.statusCode = 202;
        res.end();
        return;
      case 'request':
        if (this.draining) {
          res.setHeader('Retry-After', '1');
          return writeJsonRpcError(res, 503, new ShuttingDownError(), incoming.request.id);
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

  /** Only POST is part of 2026-07-28 (no standalone GET stream, no sessions to DELETE). */
  handleOtherMethod(res: ServerResponse): void {
    res.setHeader('Allow', 'POST');
    writeJsonRpcError(res, 405, new InvalidRequestError('Method Not Allowed: the MCP endpoint accepts POST only'));
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
      })
      .subscribe({
        complete: () => {
          finish();
          // Completed without a response (the call was cancelled): nothing more is sent.
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
