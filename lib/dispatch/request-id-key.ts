import type { RequestId } from '../protocol/wire.types.js';

/** A map key for a JSON-RPC id, by type and value: `1` and `"1"` are different ids. */
export function requestIdKey(id: RequestId): string {
  return `${typeof id}:${id}`;
}
