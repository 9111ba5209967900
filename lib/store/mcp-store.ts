import type { JsonValue } from '../protocol/wire.types.js';

/**
 * Server-side state that must hold across requests, and across instances when they share one
 * backend: one-time claims (each requestState is accepted once) and, later, task records.
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
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections. The module calls it at shutdown for the stores it opened itself. */
  close?(): Promise<void>;
}
