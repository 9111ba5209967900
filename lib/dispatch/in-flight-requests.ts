import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { publishIfPossible } from '../bus/bus-call.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, RequestId } from '../protocol/wire.types.js';
import { requestIdKey } from './request-id-key.js';

/** A request in flight: how to cancel it. */
export interface Cancellable {
  cancel(reason: Error): void;
}

/** The bus topic a `notifications/cancelled` served on one instance reaches the others by. */
const CANCELS = 'request-cancels';

interface Tracked {
  readonly calls: Set<Cancellable>;
  /** Whether a cancel served by another instance may reach these calls (a 2025 session's, not a stdio pipe's). */
  readonly shared: boolean;
}

/**
 * Requests in flight, by cancellation scope and id, for `notifications/cancelled`. A 2025 session's
 * calls may be cancelled from any instance: a cancel that finds no call here is published on the
 * bus, and the instance running the call cancels it (a stdio pipe's scope is its own process's).
 */
@Injectable()
export class InFlightRequests implements OnModuleInit {
  private readonly instance = randomUUID();
  private readonly calls = new Map<string, Tracked>();

  constructor(@Inject(MCP_BUS) private readonly bus: McpBus) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(CANCELS, (message) => {
      if (!isPlainObject(message) || message.from === this.instance || typeof message.scope !== 'string') return;
      const request = cancelledRequest(message.params);
      if (request) this.cancelHere(request, message.scope, true);
    });
  }

  /** Tracks a request until the returned function is called; `shared`: cancellable from other instances too. */
  track(scope: string, id: RequestId, call: Cancellable, shared = false): () => void {
    const key = scopedRequestKey(scope, id);
    const tracked = this.calls.get(key) ?? { calls: new Set<Cancellable>(), shared };
    tracked.calls.add(call);
    this.calls.set(key, tracked);
    return () => {
      tracked.calls.delete(call);
      if (tracked.calls.size === 0 && this.calls.get(key) === tracked) this.calls.delete(key);
    };
  }

  /**
   * Acts on `notifications/cancelled` (its `params`): the in-flight requests with that `requestId`
   * from this scope are cancelled, here or, when none runs here, on the instance running them.
   * Unknown or malformed ids are ignored, as the spec asks of notifications.
   */
  cancel(params: JsonObject | undefined, scope: string): void {
    const request = cancelledRequest(params);
    if (!request || this.cancelHere(request, scope, false)) return;
    publishIfPossible(this.bus, CANCELS, { from: this.instance, scope, params: request });
  }

  /** Cancels the matching calls of this instance; true when there were some. */
  private cancelHere(request: CancelledRequest, scope: string, fromElsewhere: boolean): boolean {
    const tracked = this.calls.get(scopedRequestKey(scope, request.requestId));
    if (!tracked || (fromElsewhere && !tracked.shared)) return false;
    for (const call of tracked.calls) call.cancel(new Error(request.reason ?? 'Cancelled by the client'));
    return true;
  }
}

type CancelledRequest = {
  requestId: RequestId;
  reason?: string;
};

/** The request id and reason of `notifications/cancelled` params (from the client or the bus); undefined without a valid id. */
function cancelledRequest(params: unknown): CancelledRequest | undefined {
  if (!isPlainObject(params)) return undefined;
  const { requestId, reason } = params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { requestId, ...(typeof reason === 'string' ? { reason } : {}) };
}

/**
 * A map key for a JSON-RPC id within one scope (a session, the stdio pipe): the same id in another
 * scope is another call, and `1` and `"1"` are different ids. Also keys ClientRequests' pending questions.
 */
export function scopedRequestKey(scope: string, id: RequestId): string {
  return `${scope}\u0000${requestIdKey(id)}`;
}
