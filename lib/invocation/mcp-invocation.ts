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
  run(): void | Promise<void>;
  /** Settled: `true` once it succeeded, or the promise of the run still waiting. */
  state?: true | Promise<void>;
  error?: unknown;
}

/**
 * The preparation rides on the invocation itself (a symbol key, unseen by JSON and `Object.keys`):
 * a WeakMap keyed by per-call objects makes V8's scavenger keep them, and what they reach (the HTTP
 * request), alive until they are promoted, which multiplies GC time per call (docs/benchmarks.md).
 */
const PREPARATION = Symbol('nest-mcp:preparation');
type Prepared = McpInvocation & { [PREPARATION]?: Preparation };

/**
 * Attaches the call's preparation (argument checks, then the one-time requestState claim) to its
 * invocation. It runs once, on first demand: when Nest extracts the first MCP parameter, which is
 * after guards and inside interceptors, where Nest runs pipes. A preparation with nothing to wait for
 * (the usual argument checks) returns nothing rather than a promise. @internal
 */
export function setPreparation(invocation: McpInvocation, run: () => void | Promise<void>): void {
  (invocation as Prepared)[PREPARATION] = { run };
}

/** Runs (once) and awaits the invocation's preparation; nothing to do for probes and direct calls. @internal */
export function prepareInvocation(invocation: McpInvocation): Promise<void> {
  try {
    return prepareNow(invocation) ?? RESOLVED;
  } catch (error) {
    return Promise.reject(error);
  }
}

const RESOLVED = Promise.resolve();

/**
 * `prepareInvocation()` for a caller that can go on at once: undefined when the preparation is done
 * (it did not have to wait), a promise while it waits; a failure is thrown (again, to a later caller). @internal
 */
export function prepareNow(invocation: McpInvocation): Promise<void> | undefined {
  const preparation = (invocation as Prepared)[PREPARATION];
  if (!preparation || preparation.state === true) return undefined;
  if (preparation.state) return preparation.state;
  if ('error' in preparation) throw preparation.error;
  const failed = (error: unknown): never => {
    preparation.error = error;
    throw error;
  };
  let running: void | Promise<void>;
  try {
    running = preparation.run();
  } catch (error) {
    return failed(error);
  }
  if (!running) {
    preparation.state = true;
    return undefined;
  }
  return (preparation.state = running.then(() => void (preparation.state = true), failed));
}

/**
 * True when `error` is the invocation's failed preparation: an argument or requestState problem
 * that is answered as such, never handed to exception filters (it was not the method's failure). @internal
 */
export function isPreparationFailure(invocation: McpInvocation, error: unknown): boolean {
  const preparation = (invocation as Prepared)[PREPARATION];
  return preparation !== undefined && 'error' in preparation && preparation.error === error;
}
