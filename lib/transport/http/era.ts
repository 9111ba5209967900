import type { McpProtocolPosture } from '../../interfaces/mcp-module-options.interface.js';
import type { IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import { HeaderMismatchError, type McpError } from '../../protocol/mcp.error.js';
import { isPlainObject } from '../../protocol/json-value.js';
import { isModernProtocolVersion, META_PROTOCOL_VERSION } from '../../protocol/protocol.constants.js';
import { headerValue } from './request-headers.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The era of one POSTed message (legacy digest §1.2, the TypeScript SDK's classifier), body first:
 * - `modern`: it carries the 2026-07-28 `_meta` claim, or (without one) a modern `MCP-Protocol-Version`
 *   header; served as today, so a malformed modern request gets a modern error. `initialize` with a
 *   modern claim is modern too, and gets -32601 like any unknown method.
 * - `initialize`: `initialize` without a modern claim opens a 2025 session (a modern header on it is -32020).
 * - `legacy`: a request, notification or posted response with `Mcp-Session-Id`, or a request with a
 *   non-modern `MCP-Protocol-Version` header (it then needs its session id).
 * - `neither`: a request with no claim, no version header, no session: told which versions exist.
 * Notifications without claim or session stay modern (answered 202, as today).
 */
export type Era =
  | { era: 'modern' }
  | { era: 'initialize' }
  | { era: 'legacy'; sessionId: string | undefined; version: string | undefined }
  | { era: 'neither' }
  | { era: 'refused'; error: McpError };

export function classifyEra(incoming: IncomingJsonRpc, headers: Headers): Era {
  if (incoming.kind === 'invalid') return { era: 'modern' };
  const version = headerValue(headers, 'mcp-protocol-version');
  const sessionId = headerValue(headers, 'mcp-session-id');
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
 * Whether a body-less request (GET) belongs to a 2025 session, by its headers as `classifyEra` reads
 * a POST's: it names a session, or a 2025 `MCP-Protocol-Version` (then it needs its session id); on
 * a `legacy` endpoint every one does. Otherwise it is 2026-07-28's, which has only POST (405).
 */
export function isLegacyBodyless(headers: Headers, posture: McpProtocolPosture): boolean {
  if (posture === 'modern') return false;
  const version = headerValue(headers, 'mcp-protocol-version');
  if (isModernProtocolVersion(version)) return false;
  return posture === 'legacy' || headerValue(headers, 'mcp-session-id') !== undefined || version !== undefined;
}
