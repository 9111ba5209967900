import type { JsonValue } from '../protocol/wire.types.js';

/**
 * Server-side state that must hold across requests, and across instances when they share one
 * backend: one-time claims (each requestState is accepted once) and task records.
 * Every entry expires; keys are plain strings (the store adds its own prefix where it has one).
 * @publicApi
 */
export interface McpStore {
  /**
   * Records `key` for `ttlMs` if nobody holds it: true for the first caller, false while the key
   * exists (claimed or set). Atomic across every server sharing the store.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** The JSON value stored under `key`, or undefined when there is none or it expired. */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Stores a JSON value under `key` for `ttlMs`, replacing any earlier value. */
  set(key: string, value: JsonValue, ttlMs: number): Promise<void>;
  /**
   * Stores `value` under `key` for `ttlMs` only if nobody holds the key: true when it was written.
   * Once it resolves true, `get` on any server sharing the store finds the value (tasks rely on it:
   * a task is announced only once it is readable).
   */
  create(key: string, value: JsonValue, ttlMs: number): Promise<boolean>;
  /**
   * Replaces the value under `key` with `next` (for `ttlMs`) only if it still equals `expected`, the
   * value an earlier `get` returned: true when written, false when someone changed or removed it
   * meanwhile (read again and retry). Values compare as their JSON text.
   */
  compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections. The module calls it at shutdown for the stores it opened itself. */
  close?(): Promise<void>;
}
