import type { McpProtocolPosture } from '../interfaces/mcp-module-options.interface.js';
import type { IncomingJsonRpc } from '../protocol/json-rpc-envelope.js';
import { HeaderMismatchError, UnsupportedProtocolVersionError, type McpError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import { isModernProtocolVersion, META_PROTOCOL_VERSION } from '../protocol/protocol.constants.js';
import { ModernEraDisabledError } from './legacy-wire.js';

/**
 * What the transport knows of a message's era besides its body: on HTTP the `MCP-Protocol-Version`
 * and `Mcp-Session-Id` headers; on stdio, the session the pipe opened (the pipe is its session).
 */
export interface EraClues {
  version?: string;
  sessionId?: string;
}

/**
 * The era of one message, told apart as the TypeScript SDK does, body first:
 * - `modern`: it carries the 2026-07-28 `_meta` claim, or (without one) a modern `MCP-Protocol-Version`
 *   header; served as a modern request, so a malformed modern request gets a modern error. `initialize` with a
 *   modern claim is modern too, and gets -32601 like any unknown method.
 * - `initialize`: `initialize` without a modern claim opens a 2025 session (a modern header on it is -32020).
 * - `legacy`: a request, notification or posted response of a 2025 session, or a request with a non-modern
 *   `MCP-Protocol-Version` header (it then needs its session id).
 * - `neither`: a request with no claim, no version header, no session: told which versions exist.
 * - `refused`: an era the endpoint does not serve (`mocapi.protocol`), or contradicting clues.
 * Notifications without claim or session stay modern (answered 202 on HTTP).
 */
export type EraVerdict =
  | { era: 'modern' }
  | { era: 'initialize' }
  | { era: 'legacy'; sessionId: string | undefined; version: string | undefined }
  | { era: 'neither' }
  | { era: 'refused'; error: McpError };

/** The era of one message, with `mocapi.protocol` applied: both transports ask this, so the posture is written once. */
export function classifyEra(incoming: IncomingJsonRpc, clues: EraClues, posture: McpProtocolPosture): EraVerdict {
  return admit(posture, byClues(incoming, clues), incoming);
}

function byClues(incoming: IncomingJsonRpc, { version, sessionId }: EraClues): EraVerdict {
  if (incoming.kind === 'invalid') return { era: 'modern' };
  const modernHeader = isModernProtocolVersion(version);
  if (incoming.kind === 'response') return sessionId !== undefined ? { era: 'legacy', sessionId, version } : { era: 'modern' };
  const params = incoming.kind === 'request' ? incoming.request.params : incoming.params;
  const claim = isPlainObject(params) && isPlainObject(params._meta) ? params._meta[META_PROTOCOL_VERSION] : undefined;
  const method = incoming.kind === 'request' ? incoming.request.method : incoming.method;
  if (method === 'initialize' && incoming.kind === 'request' && !isModernProtocolVersion(claim)) {
    if (modernHeader) {
      return { era: 'refused', error: new HeaderMismatchError(`MCP-Protocol-Version header "${version}" is a 2026 revision, which has no initialize`) };
    }
    return { era: 'initialize' };
  }
  if (claim !== undefined || modernHeader) return { era: 'modern' };
  if (sessionId !== undefined) return { era: 'legacy', sessionId, version };
  if (incoming.kind === 'notification') return { era: 'modern' };
  return version !== undefined ? { era: 'legacy', sessionId, version } : { era: 'neither' };
}

/**
 * `mocapi.protocol`: `modern` refuses initialize and session messages with the versions it speaks
 * (a notification is just accepted); `legacy` refuses 2026-07-28 requests, and a request with no
 * clue at all is taken as a session's (it then needs its session).
 */
function admit(posture: McpProtocolPosture, verdict: EraVerdict, incoming: IncomingJsonRpc): EraVerdict {
  if (posture === 'modern' && (verdict.era === 'initialize' || verdict.era === 'legacy')) {
    if (incoming.kind === 'notification') return { era: 'modern' };
    const requested = verdict.era === 'initialize' && incoming.kind === 'request' ? incoming.request.params?.protocolVersion : verdict.era === 'legacy' ? verdict.version : undefined;
    return { era: 'refused', error: new UnsupportedProtocolVersionError(typeof requested === 'string' ? requested : '') };
  }
  if (posture === 'legacy') {
    if (verdict.era === 'neither') return { era: 'legacy', sessionId: undefined, version: undefined };
    if (verdict.era === 'modern' && incoming.kind === 'request') return { era: 'refused', error: new ModernEraDisabledError() };
  }
  return verdict;
}

/**
 * Whether a body-less request (GET) belongs to a 2025 session, by its clues as a POST's are read: it
 * names a session, or a 2025 `MCP-Protocol-Version` (then it needs its session id); on a `legacy`
 * endpoint every one does. Otherwise it is 2026-07-28's, which has only POST (405).
 */
export function isSessionBodyless({ version, sessionId }: EraClues, posture: McpProtocolPosture): boolean {
  if (posture === 'modern' || isModernProtocolVersion(version)) return false;
  return posture === 'legacy' || sessionId !== undefined || version !== undefined;
}
