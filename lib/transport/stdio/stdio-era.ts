import { isPlainObject } from '../../protocol/json-value.js';
import { isModernProtocolVersion, META_PROTOCOL_VERSION } from '../../protocol/protocol.constants.js';
import type { JsonRpcRequest } from '../../protocol/wire.types.js';

/** True when the request carries the 2026-07-28 `_meta` claim (a modern protocol version). @internal */
export function hasModernClaim(request: JsonRpcRequest): boolean {
  const meta = isPlainObject(request.params) && isPlainObject(request.params._meta) ? request.params._meta : undefined;
  return meta !== undefined && isModernProtocolVersion(meta[META_PROTOCOL_VERSION]);
}
