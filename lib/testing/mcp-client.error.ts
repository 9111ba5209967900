import type { JsonRpcErrorObject } from '../protocol/wire.types.js';

/**
 * The JSON-RPC error the server answered to a request of the test client: its `code` (see
 * `JsonRpcErrorCode`), `message` and `data`, with the method and the HTTP status it came with.
 * A tool's own failure is not one: it arrives as a result with `isError: true`.
 * @publicApi
 */
export class McpClientError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(
    readonly method: string,
    error: JsonRpcErrorObject,
    readonly httpStatus: number,
  ) {
    super(error.message);
    this.name = 'McpClientError';
    this.code = error.code;
    if (error.data !== undefined) this.data = error.data;
  }
}
