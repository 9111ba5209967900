import type { MaybePromise } from '../protocol/maybe-promise.js';
import type { JsonValue } from '../protocol/wire.types.js';

/**
 * What a record is kept for. Each kind has its own budget in the module's stores, so a flood of one
 * kind cannot crowd out the others: `claim` (a spent requestState), `task` (a task record),
 * `session-end` (a 2025 session ended by DELETE).
 * @publicApi
 */
export type McpRecordKind = 'claim' | 'task' | 'session-end';

/**
 * One more limit a new record counts against, besides its kind's budget: the most live records of the
 * kind that `id` (a client, or a client's running tasks) may hold. Past it the record is refused with
 * `ClientLimitError` (-31429, HTTP 429).
 * @publicApi
 */
export interface McpRecordLimit {
  id: string;
  limit: number;
}

/**
 * What a new record counts against: its kind's budget and each of `limits`. A record that already
 * exists is not counted again when it is replaced.
 * @publicApi
 */
export interface McpRecordScope {
  kind: McpRecordKind;
  limits?: readonly McpRecordLimit[];
}

/**
 * Server-side state that must hold across requests, and across instances when they share one
 * backend: one-time claims (each requestState is accepted once), task records and ended sessions.
 * Every entry expires; keys are plain strings (the store adds its own prefix where it has one).
 *
 * A record is never dropped before it expires (or is deleted): losing one would change an answer (a
 * spent requestState accepted again, a live task gone, an ended session back). So a store that is
 * bounded and full refuses new records instead: `claimOnce`, `set` and `create` reject with a
 * `StoreFullError` (-31503, HTTP 503), or a `ClientLimitError` (-31429, HTTP 429) when a client
 * named in the scope holds its share. A key that exists is answered false, full or not.
 * @publicApi
 */
export interface McpStore {
  /**
   * Records `key` for `ttlMs` if nobody holds it: true for the first caller, false while the key
   * exists (claimed or set). Atomic across every server sharing the store.
   */
  claimOnce(key: string, ttlMs: number, scope?: McpRecordScope): Promise<boolean>;
  /** The JSON value stored under `key`, or undefined when there is none or it expired. */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Stores a JSON value under `key` for `ttlMs`, replacing any earlier value. */
  set(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<void>;
  /**
   * Stores `value` under `key` for `ttlMs` only if nobody holds the key: true when it was written.
   * Once it resolves true, `get` on any server sharing the store finds the value (tasks rely on it:
   * a task is announced only once it is readable).
   */
  create(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<boolean>;
  /**
   * Replaces the value under `key` with `next` (for `ttlMs`) only if it still equals `expected`, the
   * value an earlier `get` returned: true when written, false when someone changed or removed it
   * meanwhile (read again and retry). Values compare as their JSON text.
   */
  compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean>;
  /**
   * Stops counting `key` against the scope's `limits` (a finished task leaves its owner's cap on
   * running tasks); the record stays, counted in its kind's budget, until it expires or is deleted.
   */
  release(key: string, scope: McpRecordScope): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections. The module calls it at shutdown for the stores it opened itself. */
  close?(): Promise<void>;
  /**
   * Epoch ms since when the store holds every record written to it: a store that may have lost
   * records (a restarted process's memory, a Redis restarted, emptied or failed over) answers the
   * moment it noticed. The module refuses what was sealed before it, since whether it was used or
   * ended is no longer known: a requestState is -32602 (start the call over), a 2025 session 404.
   * A number when known; a promise while the store learns it (after a reconnect), rejecting when it
   * cannot. Without it the module trusts the store never to forget.
   */
  remembersSince?(): MaybePromise<number>;
}
