import { InvalidParamsError } from './mcp.error.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from './protocol.constants.js';
import type { ClientCapabilities, Implementation, JsonObject } from './wire.types.js';
import { isPlainObject } from './json-value.js';

/** The per-request envelope every 2026-07-28 request carries in `params._meta`. */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  /** Optional on the wire (a SHOULD); never required by this server. */
  clientInfo?: Implementation;
  progressToken?: string | number;
  /** The whole `_meta` object, for extensions and trace context. */
  raw: JsonObject;
}

/** A malformed envelope is `-32602`, and on HTTP status 400 (basic/index, "Statelessness"). */
function malformed(detail: string): InvalidParamsError {
  return new InvalidParamsError(`Invalid request _meta: ${detail}`, undefined, 400);
}

/**
 * Reads and checks `params._meta`. Fails with `-32602` when it is missing or lacks the required
 * protocol version or client capabilities; a malformed optional `clientInfo` is ignored rather than fatal.
 */
export function parseRequestMeta(params: unknown): RequestMeta {
  if (!isPlainObject(params)) throw malformed('params with _meta is required');
  const meta = params._meta;
  if (!isPlainObject(meta)) throw malformed('params._meta is required');
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  if (typeof protocolVersion !== 'string' || protocolVersion === '') {
    throw malformed(`"${META_PROTOCOL_VERSION}" is required`);
  }
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isPlainObject(clientCapabilities)) {
    throw malformed(`"${META_CLIENT_CAPABILITIES}" is required and must be an object`);
  }
  const clientInfo = meta[META_CLIENT_INFO];
  const progressToken = meta.progressToken;
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as ClientCapabilities,
    clientInfo:
      isPlainObject(clientInfo) && typeof clientInfo.name === 'string' ? (clientInfo as unknown as Implementation) : undefined,
    progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
    raw: meta,
  };
}
