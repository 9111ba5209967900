import { IntrinsicException } from '@nestjs/common';
import { JsonRpcErrorCode, LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.constants.js';
import type { ClientCapabilities, JsonRpcErrorObject } from './wire.types.js';

/**
 * An error that is answered as a JSON-RPC error. It carries its code and the HTTP status the
 * Streamable HTTP transport must use, so the edge maps errors in one place. An IntrinsicException:
 * it is an answer, not a fault, so Nest does not log it.
 * @publicApi
 */
export class McpError extends IntrinsicException {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** @publicApi */
export class ParseError extends McpError {
  constructor(message = 'Parse error: the body is not valid JSON') {
    super(JsonRpcErrorCode.ParseError, message, undefined, 400);
  }
}

/** @publicApi */
export class InvalidRequestError extends McpError {
  constructor(message: string) {
    super(JsonRpcErrorCode.InvalidRequest, message, undefined, 400);
  }
}

/** @publicApi */
export class MethodNotFoundError extends McpError {
  constructor(method: string) {
    super(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`, undefined, 404);
  }
}

/**
 * Invalid params. The spec fixes HTTP 400 for a malformed `_meta` envelope; other invalid params
 * (unknown tool, bad cursor, bad requestState) are ordinary JSON-RPC errors answered with 200.
 * @publicApi
 */
export class InvalidParamsError extends McpError {
  constructor(message: string, data?: unknown, httpStatus = 200) {
    super(JsonRpcErrorCode.InvalidParams, message, data, httpStatus);
  }
}

/** @publicApi */
export class InternalError extends McpError {
  constructor(message = 'Internal error') {
    super(JsonRpcErrorCode.InternalError, message, undefined, 500);
  }
}

/** @publicApi */
export class HeaderMismatchError extends McpError {
  constructor(message: string) {
    super(JsonRpcErrorCode.HeaderMismatch, `Header mismatch: ${message}`, undefined, 400);
  }
}

/** @publicApi */
export class MissingRequiredClientCapabilityError extends McpError {
  constructor(readonly requiredCapabilities: ClientCapabilities) {
    super(
      JsonRpcErrorCode.MissingRequiredClientCapability,
      `This request requires the client capabilities: ${Object.keys(requiredCapabilities).join(', ')}`,
      { requiredCapabilities },
      400,
    );
  }
}

/** @publicApi */
export class UnsupportedProtocolVersionError extends McpError {
  constructor(requested: string) {
    super(
      JsonRpcErrorCode.UnsupportedProtocolVersion,
      'Unsupported protocol version',
      { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested },
      400,
    );
  }
}

/**
 * nest-mcp's own error codes. Like the access codes (-31001, -31003, see `McpAccessErrorCode`) they
 * sit outside JSON-RPC's reserved range: 2026-07-28 keeps -32000…-32019 for older implementations
 * and -32020…-32099 for the spec.
 * @publicApi
 */
export const McpServerErrorCode = {
  /** The call ran past `mocapi.limits.call-timeout` (as HTTP 408). */
  RequestTimeout: -31008,
  /** The server is shutting down and takes no new requests (as HTTP 503). */
  ShuttingDown: -31503,
} as const;

/** The error a call gets when it runs past `mocapi.limits.call-timeout`. @publicApi */
export class CallTimeoutError extends McpError {
  constructor(ms: number) {
    super(McpServerErrorCode.RequestTimeout, `The request timed out after ${ms} ms`);
  }
}

/** The answer to a request that arrives while the server drains for shutdown (HTTP 503). @publicApi */
export class ShuttingDownError extends McpError {
  constructor() {
    super(McpServerErrorCode.ShuttingDown, 'Service Unavailable: the server is shutting down', undefined, 503);
  }
}

/**
 * Codes of the 2025 (legacy) Streamable HTTP session errors: in the implementation-specific band
 * -32000…-32099 of 2025, as the TypeScript SDK answers them.
 * @publicApi
 */
export const LegacySessionErrorCode = {
  /** A request of a 2025 session that the server cannot accept as sent (HTTP 400). */
  BadRequest: -32000,
  /** The `Mcp-Session-Id` is unknown, expired or was ended by DELETE (HTTP 404): initialize again. */
  SessionNotFound: -32001,
} as const;

const ERAS = `MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (every request carries params._meta) and ${LEGACY_PROTOCOL_VERSIONS.join(', ')} (initialize, then Mcp-Session-Id)`;

/** The versions this server speaks, both eras, as told to a client that spoke neither. @publicApi */
export const SPOKEN_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/** A request of a 2025 session that lacks `Mcp-Session-Id` or names a version the server does not speak (HTTP 400). @publicApi */
export class LegacyBadRequestError extends McpError {
  constructor(message: string) {
    super(LegacySessionErrorCode.BadRequest, `Bad Request: ${message}`, undefined, 400);
  }
}

/** The `Mcp-Session-Id` does not name a live session (HTTP 404). @publicApi */
export class SessionNotFoundError extends McpError {
  constructor() {
    super(LegacySessionErrorCode.SessionNotFound, 'Session not found: it is unknown, expired or ended; send initialize to start a new one', undefined, 404);
  }
}

/** A second GET stream for a 2025 session that has one open (HTTP 409): each message goes to one stream only. @publicApi */
export class StandaloneStreamConflictError extends McpError {
  constructor() {
    super(LegacySessionErrorCode.BadRequest, 'Conflict: this session already has its standalone SSE stream open (one GET stream per session)', undefined, 409);
  }
}

/**
 * A request of neither era: no `params._meta` envelope (2026-07-28), no `initialize` and no 2025 session.
 * Keeps the modern code (-32602, HTTP 400) a dual-era client recognises, and names both eras' versions.
 * @publicApi
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

/** The endpoint is configured `protocol: 'legacy'`: a modern request is refused with a code no modern client treats as final (HTTP 400). @publicApi */
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

/** True for errors that carry a JSON-RPC code (duck-typed so copies from other bundles work). */
export function isMcpError(error: unknown): error is McpError {
  return error instanceof McpError;
}
