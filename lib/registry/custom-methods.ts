import { Injectable } from '@nestjs/common';
import type { McpRequestInfo } from '../context/mcp-context.interface.js';
import type { JsonObject } from '../protocol/wire.types.js';

/** Which era's requests a custom method serves (2025 sessions, 2026-07-28 requests, or both). @publicApi */
export type McpCustomMethodEra = 'legacy' | 'modern' | 'both';

/** How a custom JSON-RPC method is served and advertised. @publicApi */
export interface McpCustomMethodOptions {
  /** Default `legacy`: the features that need one (e.g. `logging/setLevel`) were removed in 2026-07-28. */
  era?: McpCustomMethodEra;
  /**
   * Server capabilities advertised with it, merged at the top level into `initialize` (legacy) and
   * `server/discover` (modern) for the method's era, e.g. `{ logging: {} }`. A capability the module
   * advertises itself is not replaced.
   */
  capabilities?: Record<string, JsonObject>;
}

/**
 * Serves one custom method: gets the request's `params` and what is known about the request, and
 * returns the result object (a 2026-07-28 answer gets `resultType: 'complete'` when it has none). A
 * thrown McpError is answered as that JSON-RPC error.
 * @publicApi
 */
export type McpCustomMethodHandler = (params: JsonObject, request: McpRequestInfo) => JsonObject | Promise<JsonObject>;

/** @internal */
export interface RegisteredCustomMethod extends Required<McpCustomMethodOptions> {
  method: string;
  handler: McpCustomMethodHandler;
}

/**
 * Low-level protocol extension point: serves a JSON-RPC method the module does not know, and
 * advertises the capability that goes with it. It exists so that protocol features this module
 * deliberately offers no helper for (MCP logging of the 2025 revisions, for one) stay reachable,
 * e.g. by a conformance fixture; application features belong in tools, prompts and resources.
 * A method the module serves itself cannot be registered.
 * @publicApi
 */
@Injectable()
export class McpCustomMethods {
  private readonly methods = new Map<string, RegisteredCustomMethod>();
  private readonly reserved = new Set<string>();

  register(method: string, handler: McpCustomMethodHandler, options: McpCustomMethodOptions = {}): void {
    if (this.reserved.has(method) || this.methods.has(method)) {
      throw new Error(`nest-mcp: ${method} is already served; a custom method needs a name of its own`);
    }
    this.methods.set(method, { method, handler, era: options.era ?? 'legacy', capabilities: options.capabilities ?? {} });
  }

  /** The methods the module serves itself (the routing table calls it at start-up). @internal */
  reserve(methods: Iterable<string>): void {
    for (const method of methods) {
      if (this.methods.has(method)) throw new Error(`nest-mcp: ${method} is served by the module; a custom method needs a name of its own`);
      this.reserved.add(method);
    }
  }

  /** @internal */
  get(method: string): RegisteredCustomMethod | undefined {
    return this.methods.get(method);
  }

  /** The capabilities the custom methods serving `era` requests advertise. @internal */
  capabilities(era: 'legacy' | 'modern'): Record<string, JsonObject> {
    const merged: Record<string, JsonObject> = {};
    for (const entry of this.methods.values()) {
      if (entry.era === era || entry.era === 'both') Object.assign(merged, entry.capabilities);
    }
    return merged;
  }
}
