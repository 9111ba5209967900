import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Observable, type Subscriber, type Subscription } from 'rxjs';
import { publishIfPossible } from '../bus/bus-call.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import { isPlainObject } from '../protocol/json-value.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { JsonRpcNotification, JsonValue } from '../protocol/wire.types.js';
import { LegacySessionCodec, type McpSession } from './session.js';
import { LegacySessions } from './sessions.js';
import { coversUri, LIST_CHANGED_METHODS } from '../registry/change-notifications.js';
import { McpRegistry, type McpChange } from '../registry/mcp.registry.js';
import { StandaloneStreamConflictError } from './legacy-wire.js';

/** Most resources one session may subscribe to: the set is held in memory. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;

/** Node timers overflow past ~24.8 days; longer sessions re-arm their expiry. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The bus topic that tells every instance what a session subscribed to on one of them. */
const SUBSCRIPTIONS = 'session-subscriptions';

/** What one 2025 session holds on this instance: its resource subscriptions and its live stream. */
interface SessionFeed {
  readonly uris: Set<string>;
  stream?: Subscriber<JsonRpcNotification>;
  expiry: NodeJS.Timeout;
}

/**
 * The unsolicited notifications of each 2025 session (the "standalone stream"): every
 * `notifications/{tools,prompts,resources}/list_changed`, and `notifications/resources/updated`
 * for the resources the session subscribed to, from the run-time `McpRegistry` change feed (the
 * one `subscriptions/listen` serves). Transport-agnostic: HTTP's GET stream subscribes to
 * `notifications(session)`, and so can any transport that holds a session.
 *
 * Where the state lives: in each instance's memory, keyed by session, kept the same on every
 * instance over the bus (`McpBus`): `resources/subscribe` served on one instance is applied there
 * and published, and every other instance applies it too, so the session's GET stream carries the
 * update wherever it is open, and no sticky routing is needed. Changes reach every instance the same
 * way (`McpChangeFanOut`). An instance started after a subscription was made, or cut from the bus
 * when it was, does not know it (the set is not kept in the store: a store read per change and
 * stream would be the price).
 * @internal
 */
@Injectable()
export class LegacySessionFeeds implements OnModuleInit, OnModuleDestroy {
  private readonly instance = randomUUID();
  private readonly feeds = new Map<string, SessionFeed>();
  private readonly endings: Subscription;

  constructor(
    private readonly registry: McpRegistry,
    private readonly codec: LegacySessionCodec,
    sessions: LegacySessions,
    @Inject(MCP_BUS) private readonly bus: McpBus,
  ) {
    // A session ended (DELETE, on any instance) loses its stream and subscriptions at once.
    this.endings = sessions.ended.subscribe((id) => this.drop(id));
  }

  /** Applies the subscriptions made on other instances. */
  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(SUBSCRIPTIONS, (message) => this.applyFromElsewhere(message));
  }

  /** `resources/subscribe`: the session's stream carries updates of `uri` (and of anything below it), on every instance. */
  subscribe(session: McpSession, uri: string): void {
    const feed = this.feedOf(session.id, this.codec.remainingTtlMs(session));
    if (!feed.uris.has(uri) && feed.uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new InvalidParamsError(`A session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources`);
    }
    feed.uris.add(uri);
    this.publish(session, 'subscribe', uri);
  }

  /** `resources/unsubscribe`: no more updates of `uri` (unsubscribing what was not subscribed is not an error). */
  unsubscribe(session: McpSession, uri: string): void {
    this.forget(session.id, uri);
    this.publish(session, 'unsubscribe', uri);
  }

  /**
   * The session's notifications, as they happen, until the session ends (`LegacySessions.end()`), expires, or the
   * module shuts down; then it completes. One subscriber at a time: a second one gets
   * StandaloneStreamConflictError (each message goes to one stream only, 2025-11-25 transports).
   */
  notifications(session: McpSession): Observable<JsonRpcNotification> {
    return new Observable<JsonRpcNotification>((subscriber) => {
      const feed = this.feedOf(session.id, this.codec.remainingTtlMs(session));
      if (feed.stream) return subscriber.error(new StandaloneStreamConflictError());
      feed.stream = subscriber;
      const changes = this.registry.changes.subscribe((change) => {
        const notification = toNotification(change, feed.uris);
        if (notification) subscriber.next(notification);
      });
      return () => {
        changes.unsubscribe();
        if (feed.stream !== subscriber) return;
        feed.stream = undefined;
        if (feed.uris.size === 0 && this.feeds.get(session.id) === feed) this.drop(session.id);
      };
    });
  }

  /** At shutdown every stream completes. */
  onModuleDestroy(): void {
    this.endings.unsubscribe();
    for (const id of [...this.feeds.keys()]) this.drop(id);
  }

  private feedOf(id: string, remainingMs: number): SessionFeed {
    const existing = this.feeds.get(id);
    if (existing) return existing;
    const feed: SessionFeed = { uris: new Set(), expiry: this.expireAt(id, Date.now() + remainingMs) };
    this.feeds.set(id, feed);
    return feed;
  }

  private forget(id: string, uri: string): void {
    const feed = this.feeds.get(id);
    if (!feed) return;
    feed.uris.delete(uri);
    if (feed.uris.size === 0 && !feed.stream) this.drop(id);
  }

  /**
   * Sent before the answer to the subscribe is: Redis hands it to the other instances before any
   * change the client makes happen after reading that answer.
   */
  private publish(session: McpSession, op: 'subscribe' | 'unsubscribe', uri: string): void {
    publishIfPossible(this.bus, SUBSCRIPTIONS, { from: this.instance, session: session.id, remainingMs: this.codec.remainingTtlMs(session), op, uri });
  }

  private applyFromElsewhere(message: JsonValue): void {
    if (!isPlainObject(message) || message.from === this.instance) return;
    const { session, remainingMs, op, uri } = message;
    if (typeof session !== 'string' || typeof uri !== 'string' || typeof remainingMs !== 'number' || !(remainingMs > 0)) return;
    if (op === 'unsubscribe') return this.forget(session, uri);
    const feed = this.feedOf(session, remainingMs);
    // The instance that served it checked the bound.
    if (op === 'subscribe' && feed.uris.size < MAX_SUBSCRIPTIONS_PER_SESSION) feed.uris.add(uri);
  }

  /** Forgets the session when its id expires, as every instance then refuses it. */
  private expireAt(id: string, expiresAt: number): NodeJS.Timeout {
    const remaining = Math.max(1, expiresAt - Date.now());
    const timer = setTimeout(() => {
      const feed = this.feeds.get(id);
      if (!feed) return;
      if (remaining > MAX_TIMER_MS) feed.expiry = this.expireAt(id, expiresAt);
      else this.drop(id);
    }, Math.min(remaining, MAX_TIMER_MS));
    timer.unref();
    return timer;
  }

  private drop(id: string): void {
    const feed = this.feeds.get(id);
    if (!feed) return;
    this.feeds.delete(id);
    clearTimeout(feed.expiry);
    feed.stream?.complete();
  }
}

function toNotification(change: McpChange, subscribed: ReadonlySet<string>): JsonRpcNotification | undefined {
  if (change.kind === 'list') return { jsonrpc: '2.0', method: LIST_CHANGED_METHODS[change.list] };
  for (const uri of subscribed) {
    if (coversUri(uri, change.uri)) return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: change.uri } };
  }
  return undefined;
}
