/** Every revision a request may name in `_meta` (this module speaks 2026-07-28); anything else gets `-32022`. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/**
 * The 2025 (legacy, `initialize`-based) revisions served to clients that open with `initialize`, newest
 * first: a client asking for another one is offered the first (lifecycle §Version Negotiation).
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** A revision of the modern (stateless, `_meta`-enveloped) era: a date at or after 2026-07-28. */
export function isModernProtocolVersion(version: unknown): boolean {
  return typeof version === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= '2026-07-28';
}

/** Reserved `_meta` keys of 2026-07-28. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** The prefix of the reserved `_meta` keys: 2026-07-28 vocabulary, never written to a 2025 client. */
export const META_RESERVED_PREFIX = 'io.modelcontextprotocol/';

/** The tasks extension (SEP-2663): declared per request in clientCapabilities.extensions, advertised in server/discover. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The skills extension (SEP-2640): advertised in server/discover; clients need not declare it. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** MCP Apps (SEP-1865): `ui://` resources of {@link APP_MIME_TYPE}, linked from tools by `_meta.ui.resourceUri`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The MIME type of a directory resource (skills' `resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

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
