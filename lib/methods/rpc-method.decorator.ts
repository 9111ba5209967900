import { SetMetadata } from '@nestjs/common';

/** @internal */
export const MCP_RPC_METHOD_METADATA = 'mcp:rpc_method';

/** How the dispatcher serves one JSON-RPC method. @internal */
export interface RpcMethodOptions {
  /** The JSON-RPC method name, e.g. `tools/call`. */
  method: string;
  /** A multi round-trip request: its `inputResponses` count is limited before the call runs. */
  inputRounds?: boolean;
  /** Long-lived by design (listen streams): never cut by `mocapi.limits.call-timeout`. */
  untimed?: boolean;
}

/**
 * Declares the method-family method that serves one JSON-RPC method; the dispatcher builds its
 * routing table from these, as `@nestjs/cqrs` does from `@CommandHandler()`. The method receives
 * `(call: McpCall, params: JsonObject)` and returns the `Result`.
 * @internal
 */
export const RpcMethod = (method: string, options: Omit<RpcMethodOptions, 'method'> = {}): MethodDecorator =>
  SetMetadata(MCP_RPC_METHOD_METADATA, { method, ...options } satisfies RpcMethodOptions);
