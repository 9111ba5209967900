import type { Observable } from 'rxjs';
import type { CallEra } from '../dispatch/call-era.js';
import type { ClientResponse } from '../protocol/json-rpc-envelope.js';
import { InvalidRequestError, UnsupportedProtocolVersionError, type McpError } from '../protocol/mcp.error.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/wire.types.js';
import type { EraClues, EraVerdict } from './classify.js';
import type { InitializeOutcome } from './initialize.js';
import type { McpSession } from './session.js';
import { ModernEraDisabledError } from './legacy-wire.js';

/** How a pipe takes one request: refused (write the error), `initialize` (answer it in turn), or served with `era` (2026-07-28's when absent). */
export type PipeAdmission = { kind: 'refused'; error: McpError } | { kind: 'initialize' } | { kind: 'serve'; era?: CallEra };

/** The answer to a pipe's `initialize`, and the session's notifications to write from then on (when it opened one). */
export interface PipeInitialized {
  message: JsonRpcResponse;
  notifications?: Observable<JsonRpcNotification>;
}

/** What a pipe asks of the era room (`McpEras`). */
export interface PipeEraServices {
  classify(incoming: { kind: 'request'; request: JsonRpcRequest }, clues: EraClues): EraVerdict;
  initialize(request: JsonRpcRequest): InitializeOutcome;
  callEra(session: McpSession): CallEra;
  notifications(session: McpSession): Observable<JsonRpcNotification>;
  answer(session: McpSession, response: ClientResponse): boolean;
}

const SERVE_MODERN: PipeAdmission = { kind: 'serve' };
const INITIALIZE: PipeAdmission = { kind: 'initialize' };

/**
 * The era of one stdio pipe, which serves one client in one era and is its own session: its first
 * message pins it. `initialize` opens a legacy session for the pipe's lifetime; a first request with the
 * 2026-07-28 `_meta` pins it modern; a pinned pipe refuses `initialize`.
 * @internal
 */
export class PipeEra {
  private pinned: 'unpinned' | 'modern' | 'legacy' = 'unpinned';
  private session?: McpSession;

  constructor(private readonly eras: PipeEraServices) {}

  /** The era of a request, as on HTTP (`McpEras.classify`, `mocapi.protocol` applied), with what only a pipe refuses. */
  admit(request: JsonRpcRequest): PipeAdmission {
    const verdict = this.eras.classify({ kind: 'request', request }, { sessionId: this.session?.id });
    const refusal = verdict.era === 'refused' ? verdict.error : this.refusal(request, verdict.era);
    if (refusal) return { kind: 'refused', error: refusal };
    if (verdict.era === 'initialize') return INITIALIZE;
    if (verdict.era === 'legacy') return { kind: 'serve', era: this.eras.callEra(this.session!) };
    // A server/discover probe does not pin: a dual-era client may still fall back to initialize.
    if (this.pinned === 'unpinned' && verdict.era === 'modern' && request.method !== 'server/discover') this.pinned = 'modern';
    // A request with no claim at all is served as 2026-07-28's, which tells it what its envelope lacks.
    return SERVE_MODERN;
  }

  /** Legacy `initialize`: on success the pipe holds the new session for its lifetime. */
  initialize(request: JsonRpcRequest): PipeInitialized {
    const outcome = this.eras.initialize(request);
    if (!outcome.session) return { message: outcome.message };
    this.pinned = 'legacy';
    this.session = outcome.session;
    return { message: outcome.message, notifications: this.eras.notifications(outcome.session) };
  }

  /**
   * A response the client wrote: handed to the call of the pipe's session that awaits it. False when
   * none does (no session, answered, timed out, its call ended, or never sent).
   */
  answer(response: ClientResponse): boolean {
    return this.session !== undefined && this.eras.answer(this.session, response);
  }

  /** What only a pipe refuses: a second initialize, initialize on a pipe pinned modern, a session's request before initialize. */
  private refusal(request: JsonRpcRequest, era: 'modern' | 'initialize' | 'legacy' | 'neither'): McpError | undefined {
    if (era === 'initialize' && this.pinned === 'legacy') return new InvalidRequestError('Invalid Request: the session is already initialized');
    if (era === 'initialize' && this.pinned === 'modern') return new UnsupportedProtocolVersionError(String(request.params?.protocolVersion ?? ''));
    if (era === 'legacy' && !this.session) return new ModernEraDisabledError();
    return undefined;
  }
}
