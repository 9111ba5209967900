import { andThen, type MaybePromise } from '../protocol/maybe-promise.js';
import type { McpStore } from './mcp-store.js';

/**
 * Whether `store` may have lost the records of something sealed at `issuedAt` (epoch ms): true when
 * it was sealed before the moment since which the store holds every record (`remembersSince`), so
 * whether it was used or ended is no longer known. A value at once when the store knows that moment,
 * else a promise; false for a store that does not say.
 * @internal
 */
export function mayHaveForgotten(store: McpStore, issuedAt: number): MaybePromise<boolean> {
  const since = store.remembersSince?.();
  return since === undefined ? false : andThen(since, (moment) => issuedAt < moment);
}
