import { Inject, Injectable, type OnModuleInit, type Provider } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Subject } from 'rxjs';
import { publishIfPossible } from '../bus/bus-call.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SEAL_KEYS, MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import type { SealKeys } from '../mrtr/request-state.key.js';
import { FairShares } from '../store/fair-shares.js';
import type { McpStore } from '../store/mcp-store.js';
import { mayHaveForgotten } from '../store/remembers-since.js';
import { LegacySessionCodec, type McpSession } from './session.js';
import { SessionNotFoundError } from './legacy-wire.js';

const ENDED_PREFIX = 'session-ended:';
/** The bus topic that tells every instance a session ended, so its live stream ends wherever it is. */
const ENDINGS = 'session-ends';
/** Opened session ids kept, so a busy client's requests skip the AES-GCM open; oldest dropped first. */
const MAX_OPENED_SESSIONS = 1024;

/**
 * The 2025-era sessions: issued sealed at initialize, opened on each request, ended by DELETE. An
 * ended session is remembered in the shared `McpStore` until it would have expired, so DELETE ends
 * it on every instance that shares the store; what any instance holds for it live (its stream)
 * ends at once, through `ended` (the bus tells the others).
 * @internal
 */
@Injectable()
export class LegacySessions implements OnModuleInit {
  private readonly instance = randomUUID();
  private readonly endedSubject = new Subject<string>();
  /** The ids (`McpSession.id`) of the sessions ended on any instance sharing the bus, as they end. */
  readonly ended = this.endedSubject.asObservable();
  /**
   * Ids this instance opened and authenticated, by the exact id string: only what `codec.open`
   * accepted is put here, so an altered id never matches. Expiry is checked on every hit; the
   * "ended" mark is still read from the store each time (a cheap lookup next to the open), so a
   * DELETE on any instance is seen at once.
   */
  private readonly opened = new Map<string, McpSession>();

  constructor(
    private readonly codec: LegacySessionCodec,
    @Inject(MCP_STORE) private readonly store: McpStore,
    @Inject(MCP_BUS) private readonly bus: McpBus,
    private readonly shares: FairShares,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(ENDINGS, (message) => {
      if (isPlainObject(message) && message.from !== this.instance && typeof message.session === 'string') this.endedSubject.next(message.session);
    });
  }

  issue(fields: Pick<McpSession, 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'principal'>): { session: McpSession; sessionId: string } | undefined {
    return this.codec.issue(fields);
  }

  /**
   * The live session an `Mcp-Session-Id` names, for `principal` (who sends this message): SessionNotFoundError
   * (404) when it is unknown, expired, ended, or was opened by someone else — told exactly as an unknown
   * session, so a session id held by another user reveals nothing. Also when it was opened before the
   * store may have lost records (McpStore.remembersSince): whether it was ended is unknown, and the
   * client initializes a new one.
   */
  async resolve(sessionId: string, principal: string | undefined): Promise<McpSession> {
    const session = this.open(sessionId);
    if (!session || session.principal !== principal) throw new SessionNotFoundError();
    const forgotten = mayHaveForgotten(this.store, session.issuedAt);
    if (forgotten !== false && (await forgotten)) throw new SessionNotFoundError();
    if ((await this.store.get(ENDED_PREFIX + session.id)) !== undefined) throw new SessionNotFoundError();
    return session;
  }

  private open(sessionId: string): McpSession | undefined {
    const cached = this.opened.get(sessionId);
    if (cached) {
      if (!this.codec.isExpired(cached)) return cached;
      this.opened.delete(sessionId);
      return undefined;
    }
    const session = this.codec.open(sessionId);
    if (!session) return undefined;
    if (this.opened.size >= MAX_OPENED_SESSIONS) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(sessionId, session);
    return session;
  }

  /**
   * Ends a session for good (DELETE), on every instance sharing the store. The mark lives as long as
   * the session id could still be used, and counts against the share of whoever sent the DELETE.
   */
  async end(session: McpSession, httpRequest: unknown): Promise<void> {
    const scope = this.shares.scope('session-end', this.shares.owner(httpRequest, session.principal));
    await this.store.set(ENDED_PREFIX + session.id, true, this.codec.remainingTtlMs(session), scope);
    this.endedSubject.next(session.id);
    publishIfPossible(this.bus, ENDINGS, { from: this.instance, session: session.id });
  }
}

/** The session codec: the same sealing keys as requestState (current and previous), `mocapi.session.ttl`. @internal */
export const legacySessionCodecProvider: Provider = {
  provide: LegacySessionCodec,
  inject: [MCP_SEAL_KEYS, MCP_SETTINGS],
  useFactory: (keys: SealKeys, settings: McpSettings) => new LegacySessionCodec(keys, settings.session.ttlMs),
};
