import type { CacheScope, Icon, JsonObject, JsonSchemaObject, ResourceTemplateDescriptor, ToolAnnotations } from '../protocol/wire.types.js';
import type { McpStandardSchema } from '../schema/standard-schema.js';

/** Caching hints a handler may set for its list entry or read result. @publicApi */
export interface McpCacheOptions {
  ttlMs?: number;
  cacheScope?: CacheScope;
}

/** Options of `@McpTool()`. @publicApi */
export interface McpToolOptions {
  /** Tool name; defaults to the method name. 1–64 characters of `A-Z a-z 0-9 _ - .`. */
  name?: string;
  title?: string;
  /** Required: models choose tools by their description. */
  description: string;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /**
   * The structured result's schema: a DTO class, a raw JSON Schema, or a Standard Schema (Zod,
   * ArkType, Valibot's `toStandardJsonSchema()`), whose `validate` checks and converts the result.
   * When omitted and the method's declared return type is a class, that class is used.
   */
  output?: Function | JsonSchemaObject | McpStandardSchema;
  /** `output` under the name `@rekog/mcp-nest` gives it. */
  outputSchema?: McpStandardSchema | JsonSchemaObject;
  /**
   * The arguments' schema instead of the generated one: a raw JSON Schema, used verbatim (for
   * keywords a DTO cannot express: `$defs`, `if/then/else`, …), or a Standard Schema (Zod, ArkType,
   * Valibot's `toStandardJsonSchema()`), listed as its JSON Schema and validated by its own `validate`.
   * Arguments then reach the method through `@McpArgs()` (or, with no MCP parameter decorator, as
   * its first parameter).
   */
  inputSchema?: (JsonSchemaObject & { type: 'object' }) | McpStandardSchema;
  /** A Standard Schema `inputSchema`, under the name `@rekog/mcp-nest` gives it. */
  parameters?: McpStandardSchema;
  /**
   * Run the tool as a task (the `io.modelcontextprotocol/tasks` extension) for clients that declare
   * the extension on the call: `tools/call` answers at once with the task, which the client polls.
   * `true`: clients without the extension get the ordinary synchronous call. `'required'`: they get
   * -32021 instead. The handler is the same code either way (context, progress, `elicit()`).
   */
  task?: boolean | 'required';
  /**
   * When the task begins. `'call'` (default): as the call arrives. `'explicit'`: the handler first
   * runs within the `tools/call`, where it may ask questions (input_required rounds), until it calls
   * `ctx.startTask()`; a handler that returns before that answers synchronously.
   */
  taskStart?: 'call' | 'explicit';
  /**
   * Opt-in: `tools/list` runs this tool's guards (global, class and method) with a probe
   * invocation (`McpExecutionContext.isProbe()`: no arguments, no context) and leaves the tool out
   * when one denies or throws. Calls are guarded either way. Default false: guarded tools are listed.
   */
  hideWhenDenied?: boolean;
  _meta?: JsonObject;
}

/** Options of `@McpArg()` (one named argument of a tool, prompt or resource template). @publicApi */
export interface McpArgOptions {
  description?: string;
  title?: string;
  /** Defaults to true for tools and prompts. */
  required?: boolean;
  /** A TS enum object or a list of allowed values. */
  enum?: object | readonly (string | number)[];
  /** The item class or primitive constructor of an array parameter. */
  items?: Function;
  /** A raw JSON Schema for this argument, used verbatim. */
  schema?: JsonSchemaObject;
  /**
   * Mirrors this (string, integer or boolean) tool argument into the `Mcp-Param-{header}` HTTP
   * header (SEP-2243 `x-mcp-header`), so gateways can route on it. Never use it for secrets.
   */
  header?: string;
}

/** @internal what the tool decorator stores */
export interface McpToolMetadata extends McpToolOptions {
  name: string;
}

/** Options of `@McpPrompt()`. @publicApi */
export interface McpPromptOptions {
  /** Prompt name; defaults to the method name. */
  name?: string;
  title?: string;
  /** Required: clients list prompts by it. */
  description: string;
  icons?: Icon[];
  /**
   * The arguments as a Standard Schema (an object schema): its properties are the listed arguments
   * (with their descriptions, required unless optional), its `validate` checks and converts them.
   */
  parameters?: McpStandardSchema;
  /** Opt-in: `prompts/list` leaves the prompt out when its guards deny a probe (see `McpToolOptions.hideWhenDenied`). */
  hideWhenDenied?: boolean;
  _meta?: JsonObject;
}

/** @internal */
export interface McpPromptMetadata extends McpPromptOptions {
  name: string;
}

/**
 * Fields shared by `@McpResource()` and `@McpResourceTemplate()`: the protocol's descriptor fields
 * (`name` required; `title`, `description`, `mimeType`, `annotations`, `icons`, `_meta`) plus caching hints.
 * @publicApi
 */
export interface McpResourceCommonOptions extends Omit<ResourceTemplateDescriptor, 'uriTemplate'> {
  /** Caching hints of `resources/read` for this resource (SEP-2549); defaults to the module's. */
  cache?: McpCacheOptions;
  /**
   * Opt-in: `resources/list` (or `resources/templates/list`) leaves the resource out when its guards
   * deny a probe, and a caller they deny reads (or completes) it as a URI nothing serves (see
   * `McpToolOptions.hideWhenDenied`).
   */
  hideWhenDenied?: boolean;
}

/** Options of `@McpResource()`: one resource at a fixed URI. @publicApi */
export interface McpResourceOptions extends McpResourceCommonOptions {
  uri: string;
  /** Size in bytes, if known. */
  size?: number;
}

/** Options of `@McpResourceTemplate()`: a family of resources under an RFC 6570 URI template. @publicApi */
export interface McpResourceTemplateOptions extends McpResourceCommonOptions {
  /** e.g. `users://{id}/profile`; each variable is injected with `@McpArg('id')`. */
  uriTemplate: string;
  /**
   * The variables as a Standard Schema (an object schema of the template's variables): each string is
   * converted to the type it lists, then checked by its `validate`; the handler gets its output.
   */
  parameters?: McpStandardSchema;
}

/** What a completion provider completes: one argument of a prompt or of a resource template. @publicApi */
export interface McpCompleteOptions {
  /** The prompt name (`ref/prompt`). */
  prompt?: string;
  /** The URI template (`ref/resource`). */
  resourceTemplate?: string;
  /** The argument (or template variable) to complete. */
  argument: string;
}
