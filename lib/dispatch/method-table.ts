import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { MetadataScanner, ModuleRef } from '@nestjs/core';
import type { McpCall } from '../context/mcp-call.js';
import { CustomMethodContext } from '../context/mcp-handler.context.js';
import { MCP_METHOD_FAMILIES, MCP_RPC_METHOD_METADATA, type RpcMethodOptions } from '../methods/index.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { McpCustomMethods, type RegisteredCustomMethod } from '../registry/custom-methods.js';

/** One routed JSON-RPC method. */
export interface MethodRoute extends RpcMethodOptions {
  serve(call: McpCall, params: JsonObject): Result | Promise<Result>;
}

/**
 * The dispatcher's routing table, read from the `@RpcMethod()` declarations of the method
 * families (as `@nestjs/cqrs` registers its handlers), not wired by hand; then the custom methods
 * registered with `McpCustomMethods`.
 * @internal
 */
@Injectable()
export class MethodTable implements OnModuleInit {
  private readonly routes = new Map<string, MethodRoute>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly scanner: MetadataScanner,
    private readonly custom: McpCustomMethods,
  ) {}

  onModuleInit(): void {
    for (const family of MCP_METHOD_FAMILIES as Type[]) {
      const instance = this.moduleRef.get(family, { strict: true }) as Record<string, (call: McpCall, params: JsonObject) => Result | Promise<Result>>;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const options: RpcMethodOptions | undefined = Reflect.getMetadata(MCP_RPC_METHOD_METADATA, instance[name]);
        if (!options) continue;
        if (this.routes.has(options.method)) throw new Error(`nest-mcp: ${options.method} is served twice`);
        this.routes.set(options.method, { ...options, serve: instance[name].bind(instance) });
      }
    }
    this.custom.reserve(this.routes.keys());
  }

  get(method: string): MethodRoute | undefined {
    const route = this.routes.get(method);
    if (route) return route;
    const custom = this.custom.get(method);
    return custom ? customRoute(custom) : undefined;
  }
}

function customRoute(custom: RegisteredCustomMethod): MethodRoute {
  return {
    method: custom.method,
    era: custom.era,
    serve: async (call, params) => {
      const context = new CustomMethodContext(call, custom.method, () => {
        throw new Error(`${custom.method}: a custom method cannot ask the user for input`);
      });
      try {
        return { resultType: 'complete', ...(await custom.handler(params, context)) };
      } finally {
        context.close();
      }
    },
  };
}
