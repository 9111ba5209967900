import { IntrinsicException } from '@nestjs/common';
import { JsonRpcErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.constants.js';
import type { ClientCapabilities, JsonRpcErrorObject } from './wire.types.js';
import { isPlainObject } from './json-value.js';

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

/**
 * SEP-2164: a resource that does not exist (or that the caller may not see) is -32602 with the URI in
 * `data`, never empty contents. A resource handler may throw it too. @publicApi
 */
export class ResourceNotFoundError extends InvalidParamsError {
  constructor(uri: string) {
    super('Resource not found', { uri });
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
      `This request requires the client capabilities: ${capabilityNames(requiredCapabilities)}`,
      { requiredCapabilities },
      400,
    );
  }
}

/**
 * The capabilities a `requiredCapabilities` object names, for messages: `sampling`, and each extension
 * by its key (`io.modelcontextprotocol/tasks`) rather than as `extensions`. @internal
 */
export function capabilityNames(required: ClientCapabilities): string {
  const extensions = isPlainObject(required.extensions) ? Object.keys(required.extensions) : [];
  const names = [...Object.keys(required).filter((key) => key !== 'extensions'), ...extensions];
  return names.length > 0 ? names.join(', ') : 'a capability';
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

/** True for errors that carry a JSON-RPC code (duck-typed so copies from other bundles work). */
export function isMcpError(error: unknown): error is McpError {
  return error instanceof McpError;
}
