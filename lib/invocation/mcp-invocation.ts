import type { McpHandlerContext } from '../context/mcp-handler.context.js';
import type { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/wire.types.js';

/** What an invocation runs: a handler kind, or a completion source. @publicApi */
export type McpInvocationKind = McpHandlerKind | 'completion';

/**
 * What the call pipeline hands to an MCP handler: the first (and only) argument guards,
 * interceptors, pipes and filters see (`context.getArgByIndex(0)`; read it through `McpExecutionContext`).
 * @publicApi
 */
export interface McpInvocation {
  request: JsonRpcRequest;
  /** Tool, prompt, resource, resource template, or completion. */
  kind?: McpInvocationKind;
  /** The tool or prompt name, or the resource URI being read (for completions: the prompt name or URI template). */
  name?: string;
  /**
   * True when `tools/list` runs the guards of a `hideWhenDenied` tool to decide whether to list it:
   * no arguments, no context, and the handler never runs.
   */
  probe?: boolean;
  /**
   * The arguments. In guards (and interceptors, before `next.handle()`), as the client sent them;
   * from the handler's parameters on, validated (and, for prompts and templates, converted).
   */
  arguments: JsonObject;
  /** The DTO instance for `@McpArgs()`, when its type is a class (set once the arguments are checked). */
  dto?: object;
  /** The handler's context (absent for probes). */
  context: McpHandlerContext;
  httpRequest?: unknown;
}

interface Preparation {
  run(): Promise<void>;
  promise?: Promise<void>;
  error?: unknown;
}

/**
 * The preparation rides on the invocation itself (a symbol key, unseen by JSON and `Object.keys`):
 * a WeakMap keyed by per-call objects makes V8's scavenger keep them, and what they reach (the HTTP
 * request), alive until they are promoted, which tripled GC time per call.
 */
const PREPARATION = Symbol('nest-mcp:preparation');
type Prepared = McpInvocation & { [PREPARATION]?: Preparation };

/**
 * Attaches the call's preparation (argument checks, then the one-time requestState claim) to its
 * invocation. It runs once, on first demand: when Nest extracts the first MCP parameter, which is
 * after guards and inside interceptors, where Nest runs pipes. @internal
 */
export function setPreparation(invocation: McpInvocation, run: () => Promise<void>): void {
  (invocation as Prepared)[PREPARATION] = { run };
}

/** Runs (once) and awaits the invocation's preparation; nothing to do for probes and direct calls. @internal */
export function prepareInvocation(invocation: McpInvocation): Promise<void> {
  const preparation = (invocation as Prepared)[PREPARATION];
  if (!preparation) return Promise.resolve();
  preparation.promise ??= preparation.run().catch((error: unknown) => {
    preparation.error = error;
    throw error;
  });
  return preparation.promise;
}

/**
 * True when `error` is the invocation's failed preparation: an argument or requestState problem
 * that is answered as such, never handed to exception filters (it was not the method's failure). @internal
 */
export function isPreparationFailure(invocation: McpInvocation, error: unknown): boolean {
  const preparation = (invocation as Prepared)[PREPARATION];
  return preparation?.promise !== undefined && preparation.error === error;
}
