import type { ArgumentValidator } from '../schema/argument-validator.js';
import type { McpCacheOptions } from '../interfaces/handler-metadata.interface.js';
import type { JsonSchemaObject, Prompt, ResourceDescriptor, ResourceTemplateDescriptor, Tool } from '../protocol/wire.types.js';
import type { McpInvocation } from './mcp-params.factory.js';
import type { UriTemplate } from './uri-template.js';

type Invoker = (invocation: McpInvocation) => Promise<unknown>;

/** A tool ready to be called: its wire definition, its argument checks and its invoker. @internal */
export interface RegisteredTool {
  readonly definition: Tool;
  /** Where it came from (`Class.method()`), for start-up messages. */
  readonly source: string;
  readonly validator: ArgumentValidator;
  /** The `@McpArgs()` DTO class, when arguments are transformed into one. */
  readonly dto?: Function;
  /** Arguments mirrored into `Mcp-Param-{header}` headers: property → header suffix. */
  readonly headerParams?: ReadonlyMap<string, string>;
  invoke: Invoker;
  /** `hideWhenDenied`: runs the guards for a list probe; false hides the tool from `tools/list`. */
  canList?: (invocation: McpInvocation) => Promise<boolean>;
}

/** A prompt ready to be rendered. @internal */
export interface RegisteredPrompt {
  readonly definition: Prompt;
  readonly source: string;
  /** Each argument's JSON Schema, used to convert the string the client sends. */
  readonly argumentSchemas: Readonly<Record<string, JsonSchemaObject>>;
  readonly dto?: Function;
  invoke: Invoker;
  /** `hideWhenDenied`: runs the guards for a list probe; false hides the prompt from `prompts/list`. */
  canList?: (invocation: McpInvocation) => Promise<boolean>;
}

/** A resource at a fixed URI. @internal */
export interface RegisteredResource {
  readonly definition: ResourceDescriptor;
  readonly source: string;
  readonly cache?: McpCacheOptions;
  invoke: Invoker;
}

/** A family of resources under a URI template. @internal */
export interface RegisteredResourceTemplate {
  readonly definition: ResourceTemplateDescriptor;
  readonly source: string;
  readonly template: UriTemplate;
  readonly variableSchemas: Readonly<Record<string, JsonSchemaObject>>;
  readonly cache?: McpCacheOptions;
  invoke: Invoker;
}

/** A completion source for one argument of a prompt or template. @internal */
export interface RegisteredCompletion {
  /** `prompt:<name>` or `resource:<uriTemplate>`, then `#<argument>`. */
  readonly key: string;
  readonly source: string;
  complete(value: string, contextArguments: Record<string, string>): Promise<unknown>;
}

export function completionKey(ref: { type: 'prompt' | 'resource'; id: string }, argument: string): string {
  return `${ref.type}:${ref.id}#${argument}`;
}
