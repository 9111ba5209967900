import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Observable } from 'rxjs';
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
import { SessionEra, type SessionEraServices } from './session.era.js';
import type { McpSession } from './session.js';
import { LegacySessionFeeds } from './session-feeds.js';
import { LegacySessions } from './sessions.js';
import { PipeEra } from './pipe-era.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { LegacyBadRequestError } from './wire-2025.js';

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
  private readonly services: SessionEraServices;
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
    return new SessionEra(session, this.services);
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
