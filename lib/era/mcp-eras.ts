import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { principalOf } from '../auth/mcp-auth-info.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { CallEra } from '../dispatch/call-era.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { ClientResponse, IncomingJsonRpc } from '../protocol/json-rpc-envelope.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/wire.types.js';
import { McpCustomMethods } from '../registry/custom-methods.js';
import { classifyEra, isSessionBodyless, type EraClues, type EraVerdict } from './classify.js';
import { AnswerRelay } from './answer-relay.js';
import { ClientRequests } from './client-requests.js';
import { LegacyLifecycle, type InitializeOutcome } from './initialize.js';
import { LegacyEra, type LegacyEraServices } from './legacy.era.js';
import type { McpSession } from './session.js';
import { LegacySessionFeeds } from './session-feeds.js';
import { LegacySessions } from './sessions.js';
import { PipeEra } from './pipe-era.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { LegacyBadRequestError, NeitherEraError } from './legacy-wire.js';
import type { Draining, PostedAnswer, StreamAnswer } from './era-answer.js';
import { asMcpError } from '../protocol/internal-error.js';
import { InvalidRequestError, type McpError } from '../protocol/mcp.error.js';
import type { RequestId } from '../protocol/wire.types.js';

const STATELESS: PostedAnswer = { kind: 'stateless' };
const ACCEPTED: PostedAnswer = { kind: 'accepted' };

const UNAWAITED_RESPONSE =
  'Invalid Request: no request of this session awaits a response with this id (already answered, timed out, ' +
  'its call ended, or it was sent by another server instance: route a session to one instance, e.g. nginx hash $http_mcp_session_id)';

/** The methods the eras answer themselves: never routed, never a custom method's name. */
const ERA_METHODS = ['initialize', 'ping', 'resources/subscribe', 'resources/unsubscribe'];

/**
 * The face of `era/` that both transports use: which era a message speaks (with `mocapi.protocol`
 * applied), and for 2025 sessions everything around a call — initialize, opening a session from its
 * id, the answers to questions asked on a call's stream, the standalone stream, ending a session.
 * A call itself goes to the dispatcher with the `CallEra` that frames it.
 * @internal
 */
@Injectable()
export class McpEras implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  private readonly services: LegacyEraServices;
  private readonly relay: AnswerRelay;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly lifecycle: LegacyLifecycle,
    private readonly sessions: LegacySessions,
    private readonly feeds: LegacySessionFeeds,
    private readonly customMethods: McpCustomMethods,
    @Inject(MCP_BUS) bus: McpBus,
  ) {
    const clientRequests = new ClientRequests();
    this.services = { clientRequests, feeds, inputTimeoutMs: settings.session.inputTimeoutMs };
    this.relay = new AnswerRelay(clientRequests, bus);
  }

  async onModuleInit(): Promise<void> {
    this.customMethods.reserve(ERA_METHODS);
    await this.relay.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  /** The era one message speaks, or why it is refused. */
  classify(incoming: IncomingJsonRpc, clues: EraClues): EraVerdict {
    return classifyEra(incoming, clues, this.settings.protocol);
  }

  /**
   * What to do with one posted message (`httpRequest` tells who sends it, when auth is on). A
   * self-contained request is `stateless`, decided at once; a legacy session's message is decided once
   * its session is open. `transport.draining` is read where the session's work would start.
   */
  post(incoming: IncomingJsonRpc, clues: EraClues, httpRequest: unknown, transport: Draining): PostedAnswer | Promise<PostedAnswer> {
    const verdict = this.classify(incoming, clues);
    switch (verdict.era) {
      case 'modern':
        return STATELESS;
      case 'refused':
        return { kind: 'refused', status: verdict.error.httpStatus, error: verdict.error, id: requestIdOf(incoming) };
      case 'neither':
        return { kind: 'refused', status: 400, error: new NeitherEraError(), id: requestIdOf(incoming) };
      case 'initialize': {
        const { request } = incoming as Extract<IncomingJsonRpc, { kind: 'request' }>;
        if (transport.draining) return { kind: 'unavailable', id: request.id };
        const outcome = this.lifecycle.initialize(request, principalOf(httpRequest));
        return { kind: 'opened', status: outcome.httpStatus, message: outcome.message, sessionId: outcome.sessionId };
      }
      case 'legacy':
        return this.postToSession(incoming, clues, httpRequest, transport);
    }
  }

  /**
   * A message of a legacy session: the session must be named, live, and the version header (when sent)
   * one of the 2025 revisions (transports §Session Management, §Protocol Version Header).
   */
  private async postToSession(incoming: IncomingJsonRpc, clues: EraClues, httpRequest: unknown, transport: Draining): Promise<PostedAnswer> {
    const id = requestIdOf(incoming);
    let session: McpSession;
    try {
      session = await this.open(clues, principalOf(httpRequest));
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'session lookup', id, error);
      return { kind: 'refused', status: mcpError.httpStatus, error: mcpError, id };
    }
    if (incoming.kind === 'response') return this.acceptPosted(session, incoming.response);
    if (incoming.kind !== 'request') {
      // A legacy client cancels by notification (closing a stream is not a cancel there). The scope is
      // the sealed session, so only the session's holder reaches its calls.
      if (incoming.kind === 'notification' && incoming.method === 'notifications/cancelled') return { kind: 'cancel', params: incoming.params, scope: session.id };
      return ACCEPTED;
    }
    if (transport.draining) return { kind: 'unavailable', id: incoming.request.id };
    return { kind: 'serve', request: incoming.request, era: this.callEra(session), scope: session.id };
  }

  /**
   * A legacy client's answer to a question one of its calls sent: accepted when a call of this session
   * awaits that id. Otherwise (answered already, timed out, the call ended, another session's
   * question) 400: the server cannot accept it (2025 transports §Sending Messages to the Server).
   * The call may be held by another instance: the bus carries the answer there (503 when it cannot).
   */
  private async acceptPosted(session: McpSession, response: ClientResponse): Promise<PostedAnswer> {
    let delivered: boolean;
    try {
      delivered = await this.answerAnywhere(session, response);
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'answer', null, error);
      return { kind: 'refused', status: mcpError.httpStatus, error: mcpError };
    }
    return delivered ? ACCEPTED : { kind: 'refused', status: 400, error: new InvalidRequestError(UNAWAITED_RESPONSE) };
  }

  /**
   * A legacy session's GET, once the transport checked what it checks of any GET (transports §Listening
   * for Messages from the Server): the session is opened as its POSTs are (400 without its id, 404
   * unknown or ended), then its notifications stream (a second stream is refused 409 on subscribing).
   */
  async openStream(clues: EraClues, httpRequest: unknown): Promise<StreamAnswer> {
    try {
      return { kind: 'stream', notifications: this.notifications(await this.open(clues, principalOf(httpRequest))) };
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'GET', undefined, error);
      return { kind: 'refused', status: mcpError.httpStatus, error: mcpError };
    }
  }

  /** Whether a DELETE names a legacy session to end. */
  endsSession(clues: EraClues): boolean {
    return clues.sessionId !== undefined && this.settings.protocol !== 'modern';
  }

  /** DELETE of a legacy session: ended for good (undefined), or the error that refused it. */
  async endSession(clues: EraClues, httpRequest: unknown): Promise<{ status: number; error: McpError } | undefined> {
    try {
      await this.end(await this.open(clues, principalOf(httpRequest)), httpRequest);
      return undefined;
    } catch (error) {
      const mcpError = asMcpError(this.logger, 'DELETE', undefined, error);
      return { status: mcpError.httpStatus, error: mcpError };
    }
  }

  /** Whether a body-less request (GET, DELETE) is a 2025 session's. */
  isSessionRequest(clues: EraClues): boolean {
    return isSessionBodyless(clues, this.settings.protocol);
  }

  /** 2025 `initialize`: a new sealed session bound to `principal` (who sends it, when auth is on), or the error that refused it. */
  initialize(request: JsonRpcRequest, principal?: string): InitializeOutcome {
    return this.lifecycle.initialize(request, principal);
  }

  /**
   * The live session a message names: the version clue (when sent) must be a 2025 revision and the
   * session id present (400 otherwise), the session known, unexpired, not ended and opened by the
   * same `principal` as sends this message (404 otherwise, the same answer for each).
   */
  async open({ version, sessionId }: EraClues, principal?: string): Promise<McpSession> {
    if (version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
      throw new LegacyBadRequestError(`Unsupported protocol version: ${version} (supported versions: ${LEGACY_PROTOCOL_VERSIONS.join(', ')})`);
    }
    if (sessionId === undefined) throw new LegacyBadRequestError('Mcp-Session-Id header is required (send initialize first)');
    return this.sessions.resolve(sessionId, principal);
  }

  /** The era of a new stdio pipe, pinned by its first message. */
  pipe(): PipeEra {
    return new PipeEra(this);
  }

  /** How the dispatcher frames a call of this session. */
  callEra(session: McpSession): CallEra {
    return new LegacyEra(session, this.services);
  }

  /**
   * A response the client sent on stdio: handed to the call of this session that awaits it. False
   * when none does (answered, timed out, its call ended, or never sent).
   */
  answer(session: McpSession, response: ClientResponse): boolean {
    return this.services.clientRequests.answer(session.id, response);
  }

  /**
   * A response the client posted over HTTP, which may land on any instance: handed to the call of
   * this session that awaits it, here or on another instance sharing the bus. False when none does;
   * BusUnavailableError (-31503) when the other instances cannot be asked (see AnswerRelay).
   */
  answerAnywhere(session: McpSession, response: ClientResponse): Promise<boolean> {
    return this.relay.deliver(session.id, response);
  }

  /** How many questions to clients await their answer (for tests and health checks). */
  get awaitedClientAnswers(): number {
    return this.services.clientRequests.size;
  }

  /** The session's unsolicited notifications (its standalone stream), until it ends. */
  notifications(session: McpSession): Observable<JsonRpcNotification> {
    return this.feeds.notifications(session);
  }

  /** Ends a session for good (DELETE from `httpRequest`), on every instance sharing the store. */
  end(session: McpSession, httpRequest: unknown): Promise<void> {
    return this.sessions.end(session, httpRequest);
  }
}

function requestIdOf(message: IncomingJsonRpc): RequestId | undefined {
  return message.kind === 'request' ? message.request.id : message.kind === 'notification' ? undefined : message.id;
}
