import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import type { McpSettings } from '../../config/mcp-settings.js';
import { McpDispatcher, type TransportFacts } from '../../dispatch/mcp.dispatcher.js';
import { InvalidRequestError, ShuttingDownError } from '../../protocol/mcp.error.js';
import { principalOf } from '../../auth/mcp-auth-info.js';
import { McpEras, NeitherEraError, type EraClues, type McpSession } from '../../era/index.js';
import { writeStandaloneStream } from './standalone-stream.js';
import { asMcpError } from '../../protocol/internal-error.js';
import { classifyMessage, type ClientResponse, type IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import type { JsonRpcRequest } from '../../protocol/wire.types.js';
import type { RequestMeta } from '../../protocol/request-meta.js';
import { HttpAnswer } from './http-answer.js';
import { writeJson, writeJsonRpcError } from './json-response.js';
import { OriginPolicy } from './origin.policy.js';
import { headerValue, validateParamHeaders, validateStandardHeaders } from './request-headers.js';
import { acceptOffers, originRefusal } from './request-body.js';
import { playgroundPath } from '../../playground/index.js';

export type HttpRequest = IncomingMessage & { body?: unknown };

/**
 * The Streamable HTTP edge (2026-07-28): checks origin, `Accept`, content type and the JSON-RPC
 * envelope, hands the request to the dispatcher, and writes its Observable out as one JSON body,
 * or as an SSE stream once a notification comes before the response.
 */
@Injectable()
export class McpHttpTransport implements OnModuleDestroy {
  private readonly logger = new Logger('McpModule');
  private draining = false;
  /** Requests being answered, listen streams excepted (they end at shutdown, not finish). */
  private serving = 0;

  constructor(
    private readonly dispatcher: McpDispatcher,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly origins: OriginPolicy,
    private readonly eras: McpEras,
  ) {}

  handlePost(req: HttpRequest, res: ServerResponse): void {
    const message = classifyMessage(req.body);
    const clues = eraClues(req);
    const era = this.eras.classify(message, clues);
    switch (era.era) {
      case 'refused':
        return writeJsonRpcError(res, era.error.httpStatus, era.error, requestIdOf(message));
      case 'neither':
        return writeJsonRpcError(res, 400, new NeitherEraError(), requestIdOf(message));
      case 'initialize':
        return this.initialize(message as Extract<IncomingJsonRpc, { kind: 'request' }>, req, res);
      case 'session':
        return void this.serveSession(message, clues, req, res);
      case 'modern':
        return this.serveModern(message, req, res);
    }
  }

  private serveModern(message: IncomingJsonRpc, req: HttpRequest, res: ServerResponse): void {
    const incoming = refuseResponses(message);
    switch (incoming.kind) {
      case 'invalid':
        return writeJsonRpcError(res, incoming.error.httpStatus, incoming.error, incoming.id);
      case 'notification':
        // Nothing to act on: on HTTP, closing the response stream is what cancels a request, so a
        // notifications/cancelled from anyone cannot touch another client's call.
        return accepted(res);
      case 'request':
        if (this.draining) return this.refuseWhileDraining(res, incoming.request);
        return this.serve(incoming.request, res, new ModernHttpFacts(req));
    }
  }

  /** 2025 `initialize`: a new sealed session, its id in `Mcp-Session-Id`. */
  private initialize(incoming: Extract<IncomingJsonRpc, { kind: 'request' }>, req: HttpRequest, res: ServerResponse): void {
    if (this.draining) return this.refuseWhileDraining(res, incoming.request);
    const outcome = this.eras.initialize(incoming.request, principalOf(req));
    writeJson(res, outcome.httpStatus, outcome.message, outcome.sessionId ? { 'Mcp-Session-Id': outcome.sessionId } : {});
  }

  /**
   * A message of a 2025 session: the session must be named, live, and the version header (when sent)
   * one of the 2025 revisions (transports §Session Management, §Protocol Version Header).
   */
  private async serveSession(message: IncomingJsonRpc, clues: EraClues, req: HttpRequest, res: ServerResponse): Promise<void> {
    const id = requestIdOf(message);
    let session: McpSession;
    try {
      session = await this.eras.open(clues, principalOf(req));
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'session lookup', id, error);
      return writeJsonRpcError(res, mcpError.httpStatus, mcpError, id);
    }
    if (message.kind === 'response') return this.answer(session, message.response, res);
    if (message.kind !== 'request') {
      // A 2025 client cancels by notification (closing a stream is not a cancel in 2025). The scope is
      // the sealed session, so only the session's holder reaches its calls.
      if (message.kind === 'notification' && message.method === 'notifications/cancelled') this.dispatcher.cancel(message.params, session.id);
      return accepted(res);
    }
    if (this.draining) return this.refuseWhileDraining(res, message.request);
    this.serve(message.request, res, { httpRequest: req, era: this.eras.callEra(session), cancellationScope: session.id });
  }

  /**
   * A 2025 client's answer to a question one of its calls sent: 202 when a call of this session
   * awaits that id. Otherwise (answered already, timed out, the call ended, another session's
   * question) 400: the server cannot accept it (2025 transports §Sending Messages to the Server).
   * The call may be held by another instance: the bus carries the answer there (503 when it cannot).
   */
  private async answer(session: McpSession, response: ClientResponse, res: ServerResponse): Promise<void> {
    let delivered: boolean;
    try {
      delivered = await this.eras.answerAnywhere(session, response);
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'answer', null, error);
      return writeJsonRpcError(res, mcpError.httpStatus, mcpError);
    }
    if (delivered) return accepted(res);
    writeJsonRpcError(res, 400, new InvalidRequestError(UNAWAITED_RESPONSE));
  }

  private refuseWhileDraining(res: ServerResponse, request: JsonRpcRequest): void {
    res.setHeader('Retry-After', '1');
    writeJsonRpcError(res, 503, new ShuttingDownError(), request.id);
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

  /**
   * Only POST is part of 2026-07-28. GET of a 2025 session opens its standalone stream; DELETE with
   * `Mcp-Session-Id` ends a 2025 session (200); the rest is 405.
   */
  async handleOtherMethod(req: HttpRequest, res: ServerResponse): Promise<void> {
    const clues = eraClues(req);
    if (req.method === 'GET' && this.eras.isSessionRequest(clues)) return this.openStandaloneStream(req, res, clues);
    if (req.method === 'DELETE' && clues.sessionId !== undefined && this.settings.protocol !== 'modern') {
      try {
        await this.eras.end(await this.eras.open(clues, principalOf(req)), req);
      } catch (error) {
        const mcpError = asMcpError(this.logger, 'DELETE', undefined, error);
        return writeJsonRpcError(res, mcpError.httpStatus, mcpError);
      }
      res.statusCode = 200;
      res.end();
      return;
    }
    res.setHeader('Allow', 'POST');
    // Most often a person who opened the printed URL in a browser: point them at the page they can use.
    const page = this.settings.playground ? `; open ${playgroundPath(this.settings.endpoint)} in a browser to try the server` : '';
    writeJsonRpcError(res, 405, new InvalidRequestError(`Method Not Allowed: the MCP endpoint accepts POST only${page}`));
  }

  /**
   * GET of a 2025 session (transports §Listening for Messages from the Server): checked as its POSTs
   * are (400 without `Mcp-Session-Id`, 404 unknown or ended), then the session's notifications
   * (LegacySessionFeeds) as an SSE stream; a second stream for the session is refused 409.
   */
  private async openStandaloneStream(req: HttpRequest, res: ServerResponse, clues: EraClues): Promise<void> {
    const foreign = originRefusal(req, this.origins);
    if (foreign) return writeJsonRpcError(res, foreign.status, foreign.error);
    if (!acceptOffers(headerValue(req.headers, 'accept'), 'text/event-stream')) {
      return writeJsonRpcError(res, 406, new InvalidRequestError('Not Acceptable: the Accept header must offer text/event-stream'));
    }
    if (this.draining) {
      res.setHeader('Retry-After', '1');
      return writeJsonRpcError(res, 503, new ShuttingDownError());
    }
    let session: McpSession;
    try {
      session = await this.eras.open(clues, principalOf(req));
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'GET', undefined, error);
      return writeJsonRpcError(res, mcpError.httpStatus, mcpError);
    }
    writeStandaloneStream(res, this.eras.notifications(session));
  }

  private serve(request: JsonRpcRequest, res: ServerResponse, facts: TransportFacts): void {
    // Listen streams end at shutdown, not finish: they are not counted.
    const counted = request.method !== 'subscriptions/listen';
    if (counted) this.serving++;
    const answer = new HttpAnswer(res, counted ? this.served : undefined);
    // Progress over SSE and listen streams ride the dispatcher's Observable; the common call, answered
    // with one JSON body, gets the same messages through the answer alone (no Observable per request).
    answer.source =
      request.method === 'subscriptions/listen' || hasProgressToken(request)
        ? this.dispatcher.dispatch(request, facts).subscribe(answer)
        : this.dispatcher.serve(request, facts, answer);
  }

  private readonly served = () => {
    this.serving--;
  };
}

/** True when the request asks for progress notifications (`_meta.progressToken`). */
function hasProgressToken(request: JsonRpcRequest): boolean {
  const meta = (request.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
  return meta?.progressToken !== undefined;
}

const UNAWAITED_RESPONSE =
  'Invalid Request: no request of this session awaits a response with this id (already answered, timed out, ' +
  'its call ended, or it was sent by another server instance: route a session to one instance, e.g. nginx hash $http_mcp_session_id)';

/** Outside a 2025 session a posted response is refused: a POST must carry a request or notification. */
function refuseResponses(incoming: IncomingJsonRpc): Exclude<IncomingJsonRpc, { kind: 'response' }> {
  if (incoming.kind !== 'response') return incoming;
  return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: clients must not send JSON-RPC responses'), id: incoming.id };
}

/** A 2026-07-28 request's HTTP facts: its headers are checked against its body and its tool's arguments. */
class ModernHttpFacts implements TransportFacts {
  constructor(readonly httpRequest: HttpRequest) {}

  validate(body: JsonRpcRequest, meta: RequestMeta): void {
    validateStandardHeaders(this.httpRequest.headers, body, meta);
  }

  checkParamHeaders(args: unknown, mirrored: ReadonlyMap<string, string>): void {
    validateParamHeaders(this.httpRequest.headers, args, mirrored);
  }
}

/** What the headers say of a message's era. */
function eraClues(req: HttpRequest): EraClues {
  return { version: headerValue(req.headers, 'mcp-protocol-version'), sessionId: headerValue(req.headers, 'mcp-session-id') };
}

function requestIdOf(message: IncomingJsonRpc): JsonRpcRequest['id'] | undefined {
  return message.kind === 'request' ? message.request.id : message.kind === 'notification' ? undefined : message.id;
}

function accepted(res: ServerResponse): void {
  res.statusCode = 202;
  res.end();
}
