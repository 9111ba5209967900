/** Every revision a request may name in `_meta` (this module speaks 2026-07-28); anything else gets `-32022`. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Reserved `_meta` keys of 2026-07-28. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The tasks extension (SEP-2663): declared per request in clientCapabilities.extensions, advertised in server/discover. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** JSON-RPC error codes: the standard ones and the 2026-07-28 band (-32020 … -32099). */
export enum JsonRpcErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  HeaderMismatch = -32020,
  MissingRequiredClientCapability = -32021,
  UnsupportedProtocolVersion = -32022,
}
