import type {
  CompletionDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../definitions/definition.factory.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { MaybePromise } from '../protocol/maybe-promise.js';

/** How a registered handler is called. @internal */
export interface Callable {
  invoke(invocation: McpInvocation): MaybePromise<unknown>;
  /**
   * True when Nest extracts at least one MCP parameter of the method: the call pipeline checks the
   * arguments there (after guards). False for run-time additions and parameterless methods.
   */
  readonly extractsParameters?: boolean;
}

/** `hideWhenDenied`: runs the guards for a list probe; false hides the entry from its list and from lookups by name. */
interface Listable {
  canList?: (invocation: McpInvocation) => Promise<boolean>;
}

/** A tool ready to be called. @internal */
export type RegisteredTool = ToolDefinition & Callable & Listable;
/** A prompt ready to be rendered. @internal */
export type RegisteredPrompt = PromptDefinition & Callable & Listable;
/** A resource at a fixed URI. @internal */
export type RegisteredResource = ResourceDefinition & Callable & Listable;
/** A family of resources under a URI template. @internal */
export type RegisteredResourceTemplate = ResourceTemplateDefinition & Callable & Listable;
/** A completion source for one argument of a prompt or template; called with `(value, context)`. @internal */
export type RegisteredCompletion = CompletionDefinition & Callable;
