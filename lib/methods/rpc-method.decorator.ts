import { SetMetadata } from '@nestjs/common';

/** @internal */
export const MCP_RPC_METHOD_METADATA = 'mcp:rpc_method';

/**
 * Which era's requests a method serves: `modern` (2026-07-28 requests), `legacy` (requests of a 2025
 * session: methods 2026-07-28 removed) or `both`.
 */
export type RpcEra = 'modern' | 'legacy' | 'both';

/** How the dispatcher serves one JSON-RPC method. @internal */
export interface RpcMethodOptions {
  /** The JSON-RPC method name, e.g. `tools/call`. */
  method: string;
  /** A multi round-trip request: its `inputResponses` count is limited before the call runs. */
  inputRounds?: boolean;
  /** Long-lived by design (listen streams): never cut by `mocapi.limits.call-timeout`. */
  untimed?: boolean;
  /** Which era's requests it serves; default `modern` (2026-07-28 only). */
  era?: RpcEra;
}

/**
 * Declares the method-family method that serves one JSON-RPC method; the dispatcher builds its
 * routing table from these, as `@nestjs/cqrs` does from `@CommandHandler()`. The method receives
 * `(call: McpCall, params: JsonObject)` and returns the `Result`.
 * @internal
 */
export const RpcMethod = (method: string, options: Omit<RpcMethodOptions, 'method'> = {}): MethodDecorator =>
  SetMetadata(MCP_RPC_METHOD_METADATA, { method, ...options } satisfies RpcMethodOptions);
