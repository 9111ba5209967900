import { McpError } from '../protocol/mcp.error.js';
import { JsonRpcErrorCode, LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';


/**
 * Codes of the 2025 (legacy) Streamable HTTP session errors: in the implementation-specific band
 * -32000…-32099 of 2025, as the TypeScript SDK answers them.
 * @internal
 */
export const LegacySessionErrorCode = {
  /** A request of a 2025 session that the server cannot accept as sent (HTTP 400). */
  BadRequest: -32000,
  /** The `Mcp-Session-Id` is unknown, expired or was ended by DELETE (HTTP 404): initialize again. */
  SessionNotFound: -32001,
} as const;

const ERAS = `MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (every request carries params._meta) and ${LEGACY_PROTOCOL_VERSIONS.join(', ')} (initialize, then Mcp-Session-Id)`;

/** The versions this server speaks, both eras, as told to a client that spoke neither. @internal */
export const SPOKEN_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** A request of a 2025 session that lacks `Mcp-Session-Id` or names a version the server does not speak (HTTP 400). @internal */
export class LegacyBadRequestError extends McpError {
  constructor(message: string) {
    super(LegacySessionErrorCode.BadRequest, `Bad Request: ${message}`, undefined, 400);
  }
}

/** The `Mcp-Session-Id` does not name a live session (HTTP 404). @internal */
export class SessionNotFoundError extends McpError {
  constructor() {
    super(LegacySessionErrorCode.SessionNotFound, 'Session not found: it is unknown, expired or ended; send initialize to start a new one', undefined, 404);
  }
}

/** A second GET stream for a 2025 session that has one open (HTTP 409): each message goes to one stream only. @internal */
export class StandaloneStreamConflictError extends McpError {
  constructor() {
    super(LegacySessionErrorCode.BadRequest, 'Conflict: this session already has its standalone SSE stream open (one GET stream per session)', undefined, 409);
  }
}

/**
 * A request of neither era: no `params._meta` envelope (2026-07-28), no `initialize` and no 2025 session.
 * Keeps the modern code (-32602, HTTP 400) a dual-era client recognises, and names both eras' versions.
 * @internal
 */
export class NeitherEraError extends McpError {
  constructor() {
    super(
      JsonRpcErrorCode.InvalidParams,
      `Invalid request _meta: params._meta is required. This server speaks ${ERAS}`,
      { supported: SPOKEN_VERSIONS },
      400,
    );
  }
}

/** The endpoint is configured `protocol: 'legacy'`: a modern request is refused with a code no modern client treats as final (HTTP 400). @internal */
export class ModernEraDisabledError extends McpError {
  constructor() {
    super(
      JsonRpcErrorCode.InvalidRequest,
      `This server speaks MCP ${LEGACY_PROTOCOL_VERSIONS.join(', ')} only: send initialize`,
      { supported: [...LEGACY_PROTOCOL_VERSIONS] },
      400,
    );
  }
}
