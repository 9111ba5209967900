import type { JsonObject, RequestId } from '../protocol/wire.types.js';
import { requestIdKey } from './request-id-key.js';

/** A request in flight: how to cancel it. */
export interface Cancellable {
  cancel(reason: Error): void;
}

/** Requests in flight, by cancellation scope and id, for `notifications/cancelled`. */
export class InFlightRequests {
  private readonly calls = new Map<string, Set<Cancellable>>();

  /** Tracks a request until the returned function is called. */
  track(scope: string, id: RequestId, call: Cancellable): () => void {
    const key = scopedRequestKey(scope, id);
    const calls = this.calls.get(key) ?? new Set<Cancellable>();
    calls.add(call);
    this.calls.set(key, calls);
    return () => {
      calls.delete(call);
      if (calls.size === 0 && this.calls.get(key) === calls) this.calls.delete(key);
    };
  }

  /**
   * Acts on `notifications/cancelled` (its `params`): the in-flight requests with that `requestId`
   * from this scope are cancelled. Unknown or malformed ids are ignored, as the spec asks of notifications.
   */
  cancel(params: JsonObject | undefined, scope: string): void {
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const reason = typeof params?.reason === 'string' ? params.reason : 'Cancelled by the client';
    for (const call of this.calls.get(scopedRequestKey(scope, requestId)) ?? []) call.cancel(new Error(reason));
  }
}

/**
 * A map key for a JSON-RPC id within one scope (a session, the stdio pipe): the same id in another
 * scope is another call, and `1` and `"1"` are different ids. Also keys ClientRequests' pending questions.
 */
export function scopedRequestKey(scope: string, id: RequestId): string {
  return `${scope}\u0000${requestIdKey(id)}`;
}
