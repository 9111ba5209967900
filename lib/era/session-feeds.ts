import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Observable, type Subscriber, type Subscription } from 'rxjs';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { JsonRpcNotification } from '../protocol/wire.types.js';
import { LegacySessionCodec, type McpSession } from './session.js';
import { LegacySessions } from './sessions.js';
import { coversUri, LIST_CHANGED_METHODS } from '../registry/change-notifications.js';
import { McpRegistry, type McpChange } from '../registry/mcp.registry.js';
import { StandaloneStreamConflictError } from './wire-2025.js';

/** Most resources one session may subscribe to: the set is held in memory. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 256;

/** Node timers overflow past ~24.8 days; longer sessions re-arm their expiry. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
 * Where the state lives: in this process, keyed by session, not in the `McpStore`. The stream is a
 * live connection held by one instance, and the change feed is in-process (an update is announced
 * on the instance where `notifyResourceUpdated()` is called), so a subscription kept in the store
 * would still only be served where the stream is, at the cost of a store read per change. Several
 * instances therefore route a session to one of them (nginx `hash $http_mcp_session_id consistent`),
 * which the server→client requests of 2025 sessions need anyway.
 * @internal
 */
@Injectable()
export class LegacySessionFeeds implements OnModuleDestroy {
  private readonly feeds = new Map<string, SessionFeed>();
  private readonly endings: Subscription;

  constructor(
    private readonly registry: McpRegistry,
    private readonly codec: LegacySessionCodec,
    sessions: LegacySessions,
  ) {
    // A session ended here (DELETE) loses its stream and subscriptions at once.
    this.endings = sessions.ended.subscribe((id) => this.drop(id));
  }

  /** `resources/subscribe`: the session's stream carries updates of `uri` (and of anything below it). */
  subscribe(session: McpSession, uri: string): void {
    const feed = this.feedOf(session);
    if (!feed.uris.has(uri) && feed.uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw new InvalidParamsError(`A session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources`);
    }
    feed.uris.add(uri);
  }

  /** `resources/unsubscribe`: no more updates of `uri` (unsubscribing what was not subscribed is not an error). */
  unsubscribe(session: McpSession, uri: string): void {
    const feed = this.feeds.get(session.id);
    if (!feed) return;
    feed.uris.delete(uri);
    if (feed.uris.size === 0 && !feed.stream) this.drop(session.id);
  }

  /**
   * The session's notifications, as they happen, until the session ends (`LegacySessions.end()`), expires, or the
   * module shuts down; then it completes. One subscriber at a time: a second one gets
   * StandaloneStreamConflictError (each message goes to one stream only, 2025-11-25 transports).
   */
  notifications(session: McpSession): Observable<JsonRpcNotification> {
    return new Observable<JsonRpcNotification>((subscriber) => {
      const feed = this.feedOf(session);
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

  private feedOf(session: McpSession): SessionFeed {
    const existing = this.feeds.get(session.id);
    if (existing) return existing;
    const feed: SessionFeed = { uris: new Set(), expiry: this.expireAt(session) };
    this.feeds.set(session.id, feed);
    return feed;
  }

  /** Forgets the session when its id expires, as every instance then refuses it. */
  private expireAt(session: McpSession): NodeJS.Timeout {
    const remaining = this.codec.remainingTtlMs(session);
    const timer = setTimeout(() => {
      const feed = this.feeds.get(session.id);
      if (!feed) return;
      if (remaining > MAX_TIMER_MS) feed.expiry = this.expireAt(session);
      else this.drop(session.id);
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
