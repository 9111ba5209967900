import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import type { McpSettings } from '../../config/mcp-settings.js';
import { McpDispatcher, type TransportFacts } from '../../dispatch/mcp.dispatcher.js';
import { InvalidRequestError, ShuttingDownError } from '../../protocol/mcp.error.js';
import { McpEras, type EraClues, type PostedAnswer } from '../../era/index.js';
import { writeStandaloneStream } from './standalone-stream.js';
import { classifyMessage, type IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import type { JsonRpcRequest, RequestId } from '../../protocol/wire.types.js';
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
  private stopping = false;
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
    const answer = this.eras.post(message, eraClues(req), req, this);
    if (answer instanceof Promise) return void answer.then((settled) => this.carryOut(settled, message, req, res));
    this.carryOut(answer, message, req, res);
  }

  /** Whether new work is refused (503) while the calls in flight finish. */
  get draining(): boolean {
    return this.stopping;
  }

  /** Writes out what the era room decided for a posted message. */
  private carryOut(answer: PostedAnswer, message: IncomingJsonRpc, req: HttpRequest, res: ServerResponse): void {
    switch (answer.kind) {
      case 'stateless':
        return this.serveStateless(message, req, res);
      case 'refused':
        return writeJsonRpcError(res, answer.status, answer.error, answer.id);
      case 'unavailable':
        return this.refuseWhileDraining(res, answer.id);
      case 'opened':
        return writeJson(res, answer.status, answer.message, answer.sessionId ? { 'Mcp-Session-Id': answer.sessionId } : {});
      case 'cancel':
        this.dispatcher.cancel(answer.params, answer.scope);
        return accepted(res);
      case 'accepted':
        return accepted(res);
      case 'serve':
        return this.serve(answer.request, res, { httpRequest: req, era: answer.era, cancellationScope: answer.scope });
    }
  }

  /** A self-contained request: its headers are checked against its body; a notification needs nothing. */
  private serveStateless(message: IncomingJsonRpc, req: HttpRequest, res: ServerResponse): void {
    const incoming = refuseResponses(message);
    switch (incoming.kind) {
      case 'invalid':
        return writeJsonRpcError(res, incoming.error.httpStatus, incoming.error, incoming.id);
      case 'notification':
        // Nothing to act on: on HTTP, closing the response stream is what cancels a request, so a
        // notifications/cancelled from anyone cannot touch another client's call.
        return accepted(res);
      case 'request':
        if (this.stopping) return this.refuseWhileDraining(res, incoming.request.id);
        return this.serve(incoming.request, res, new StatelessHttpFacts(req));
    }
  }

  private refuseWhileDraining(res: ServerResponse, id?: RequestId): void {
    res.setHeader('Retry-After', '1');
    writeJsonRpcError(res, 503, new ShuttingDownError(), id);
  }

  /**
   * Graceful shutdown (with `enableShutdownHooks()`): new requests get 503 while the calls in
   * flight finish, up to `mocapi.limits.shutdown-timeout`. Listen streams are ended separately.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    const deadline = Date.now() + this.settings.limits.shutdownTimeoutMs;
    while (this.serving > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * Only POST is part of 2026-07-28. GET of a session opens its standalone stream; DELETE of a session
   * ends it (200); the rest is 405.
   */
  async handleOtherMethod(req: HttpRequest, res: ServerResponse): Promise<void> {
    const clues = eraClues(req);
    if (req.method === 'GET' && this.eras.isSessionRequest(clues)) return this.openStandaloneStream(req, res, clues);
    if (req.method === 'DELETE' && this.eras.endsSession(clues)) {
      const refusal = await this.eras.endSession(clues, req);
      if (refusal) return writeJsonRpcError(res, refusal.status, refusal.error);
      res.statusCode = 200;
      res.end();
      return;
    }
    res.setHeader('Allow', 'POST');
    // Most often a person who opened the printed URL in a browser: point them at the page they can use.
    const page = this.settings.playground ? `; open ${playgroundPath(this.settings.endpoint)} in a browser to try the server` : '';
    writeJsonRpcError(res, 405, new InvalidRequestError(`Method Not Allowed: the MCP endpoint accepts POST only${page}`));
  }

  /** GET of a session: checked as any GET stream is (origin, `Accept`, draining), then opened by the era room as an SSE stream. */
  private async openStandaloneStream(req: HttpRequest, res: ServerResponse, clues: EraClues): Promise<void> {
    const foreign = originRefusal(req, this.origins);
    if (foreign) return writeJsonRpcError(res, foreign.status, foreign.error);
    if (!acceptOffers(headerValue(req.headers, 'accept'), 'text/event-stream')) {
      return writeJsonRpcError(res, 406, new InvalidRequestError('Not Acceptable: the Accept header must offer text/event-stream'));
    }
    if (this.stopping) return this.refuseWhileDraining(res);
    const answer = await this.eras.openStream(clues, req);
    if (answer.kind === 'refused') return writeJsonRpcError(res, answer.status, answer.error);
    writeStandaloneStream(res, answer.notifications);
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

/** Outside a session a posted response is refused: a POST must carry a request or notification. */
function refuseResponses(incoming: IncomingJsonRpc): Exclude<IncomingJsonRpc, { kind: 'response' }> {
  if (incoming.kind !== 'response') return incoming;
  return { kind: 'invalid', error: new InvalidRequestError('Invalid Request: clients must not send JSON-RPC responses'), id: incoming.id };
}

/** A self-contained request's HTTP facts: its headers are checked against its body and its tool's arguments. */
class StatelessHttpFacts implements TransportFacts {
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

function accepted(res: ServerResponse): void {
  res.statusCode = 202;
  res.end();
}
