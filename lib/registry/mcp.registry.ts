import { Injectable, Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { McpPromptContext, McpResourceContext, McpToolContext } from '../context/mcp-context.interface.js';
import type {
  McpPromptOptions,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpToolOptions,
} from '../interfaces/handler-metadata.interface.js';
import { DUPLICATE_HANDLER } from '../mcp.messages.js';
import { APP_MIME_TYPE } from '../protocol/protocol.constants.js';
import type { JsonObject, JsonSchemaObject, PromptArgument } from '../protocol/wire.types.js';
import { McpDefinitionFactory } from '../definitions/definition.factory.js';
import type { McpHandlerArgs, McpToolReturn } from '../decorators/typed-handler.types.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type {
  RegisteredCompletion,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
} from './registered-handlers.js';

/** Which list changed. @publicApi */
export type McpListKind = 'tools' | 'prompts' | 'resources';

/** A change that `subscriptions/listen` streams announce (see `McpRegistry.changes`). @publicApi */
export type McpChange = { kind: 'list'; list: McpListKind } | { kind: 'resource'; uri: string };

const RUNTIME = 'McpRegistry (added at run time)';

/**
 * Every tool, prompt and resource the server offers, in a stable order (discovery order, then
 * run-time additions). Discovery fills it at start-up; application code may add and remove
 * entries at run time. Each change is announced to `subscriptions/listen` streams.
 * @publicApi
 */
@Injectable()
export class McpRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly resources = new Map<string, RegisteredResource>();
  private readonly templates = new Map<string, RegisteredResourceTemplate>();
  private readonly completions = new Map<string, RegisteredCompletion>();
  private readonly changeSubject = new Subject<McpChange>();
  /** Run-time additions follow the same rules as decorated handlers. */
  private readonly definitions = new McpDefinitionFactory(new Logger('McpModule'));
  /** Every change, as it happens. */
  readonly changes = this.changeSubject.asObservable();

  // ── run-time API ────────────────────────────────────────────────────────────────────────────

  /**
   * Adds a tool at run time; its arguments are checked against `inputSchema` (default: any object).
   * With a Standard Schema `inputSchema` (or `output`), the handler is typed from it: it receives the
   * schema's output and must return what the output schema accepts.
   */
  addTool<const O extends McpToolOptions & { name: string }>(
    options: O,
    handler: (args: McpHandlerArgs<O, JsonObject>, context: McpToolContext) => McpToolReturn<O>,
  ): void {
    this.registerTool({
      ...this.definitions.runtimeTool(options, `tool "${options.name}"`),
      source: RUNTIME,
      invoke: async (invocation) => handler(invocation.arguments as McpHandlerArgs<O, JsonObject>, invocation.context as unknown as McpToolContext),
    });
    this.announce('tools');
  }

  /**
   * Adds a prompt at run time; `arguments` lists its (string) arguments, or a Standard Schema
   * `parameters` declares, checks and converts them (and types the handler's `args`).
   */
  addPrompt<const O extends McpPromptOptions & { name: string; arguments?: PromptArgument[] }>(
    options: O,
    handler: (args: McpHandlerArgs<O, Record<string, string>>, context: McpPromptContext) => unknown,
  ): void {
    const invoke = async (invocation: McpInvocation) => handler(invocation.arguments as McpHandlerArgs<O, Record<string, string>>, invocation.context as unknown as McpPromptContext);
    if (options.parameters) {
      if (options.arguments) throw new Error(`Prompt "${options.name}" names both "arguments" and "parameters": give one`);
      const method = { source: `prompt "${options.name}"`, params: [], argOptions: {}, paramTypes: [] };
      this.registerPrompt({ ...this.definitions.prompt(method, options), source: RUNTIME, invoke });
      this.announce('prompts');
      return;
    }
    const argumentSchemas = Object.fromEntries((options.arguments ?? []).map((argument) => [argument.name, { type: 'string' }]));
    this.registerPrompt({
      definition: (({ hideWhenDenied: _hidden, ...definition }) => definition)(options),
      source: RUNTIME,
      argumentSchemas,
      invoke,
    });
    this.announce('prompts');
  }

  /** Adds a resource at run time. */
  addResource(options: McpResourceOptions, handler: (context: McpResourceContext) => unknown): void {
    this.registerResource({
      ...this.definitions.resource(RUNTIME, options),
      invoke: async (invocation) => handler(invocation.context as unknown as McpResourceContext),
    });
    this.announce('resources');
  }

  /** Adds a resource template at run time; the handler gets the URI's variables (with `parameters`, its output, typed). */
  addResourceTemplate<const O extends McpResourceTemplateOptions>(
    options: O,
    handler: (variables: McpHandlerArgs<O, Record<string, string>>, context: McpResourceContext) => unknown,
  ): void {
    this.registerResourceTemplate({
      ...this.definitions.resourceTemplate(RUNTIME, options),
      invoke: async (invocation) => handler(invocation.arguments as McpHandlerArgs<O, Record<string, string>>, invocation.context as unknown as McpResourceContext),
    });
    this.announce('resources');
  }

  removeTool(name: string): boolean {
    return this.remove(this.tools, name, 'tools');
  }
  removePrompt(name: string): boolean {
    return this.remove(this.prompts, name, 'prompts');
  }
  removeResource(uri: string): boolean {
    return this.remove(this.resources, uri, 'resources');
  }
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.remove(this.templates, uriTemplate, 'resources');
  }

  /** Tells subscribed clients that the resource at `uri` (or under it) changed. */
  notifyResourceUpdated(uri: string): void {
    this.changeSubject.next({ kind: 'resource', uri });
  }

  /** Tells listening clients that a list changed (for changes the registry cannot see, e.g. by authorization). */
  notifyListChanged(list: McpListKind): void {
    this.announce(list);
  }

  // ── used by discovery and the method handlers ───────────────────────────────────────────────

  /** @internal */
  registerTool(tool: RegisteredTool): void {
    this.put(this.tools, tool.definition.name, tool, 'tool');
  }
  /** @internal */
  registerPrompt(prompt: RegisteredPrompt): void {
    this.put(this.prompts, prompt.definition.name, prompt, 'prompt');
  }
  /** @internal */
  registerResource(resource: RegisteredResource): void {
    this.put(this.resources, resource.definition.uri, resource, 'resource');
  }
  /** @internal */
  registerResourceTemplate(template: RegisteredResourceTemplate): void {
    this.put(this.templates, template.definition.uriTemplate, template, 'resource template');
  }
  /** @internal */
  registerCompletion(completion: RegisteredCompletion): void {
    this.put(this.completions, completion.key, completion, 'completion');
  }

  /** @internal */
  getTool(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }
  /** @internal */
  getPrompt(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }
  /** @internal */
  getResource(uri: string): RegisteredResource | undefined {
    return this.resources.get(uri);
  }
  /** @internal */
  getCompletion(key: string): RegisteredCompletion | undefined {
    return this.completions.get(key);
  }
  /** @internal */
  getResourceTemplate(uriTemplate: string): RegisteredResourceTemplate | undefined {
    return this.templates.get(uriTemplate);
  }
  /** The first template that matches `uri`, with its variables. @internal */
  matchResourceTemplate(uri: string): { template: RegisteredResourceTemplate; variables: Record<string, string> } | undefined {
    for (const template of this.templates.values()) {
      const variables = template.template.match(uri);
      if (variables) return { template, variables };
    }
    return undefined;
  }

  listTools(): RegisteredTool[] {
    return [...this.tools.values()];
  }
  listPrompts(): RegisteredPrompt[] {
    return [...this.prompts.values()];
  }
  listResources(): RegisteredResource[] {
    return [...this.resources.values()];
  }
  listResourceTemplates(): RegisteredResourceTemplate[] {
    return [...this.templates.values()];
  }
  /** True when some tool runs as a task: then server/discover advertises the tasks extension. @internal */
  get hasTaskTools(): boolean {
    return this.listTools().some((tool) => Boolean(tool.task));
  }
  /** True when some resource is an MCP App (a linked tool's app must be one): server/discover advertises the ui extension. @internal */
  get hasApps(): boolean {
    return this.listResources().some((resource) => resource.definition.mimeType === APP_MIME_TYPE) ||
      this.listResourceTemplates().some((template) => template.definition.mimeType === APP_MIME_TYPE);
  }
  /** @internal */
  get hasCompletions(): boolean {
    return this.completions.size > 0 || this.listPrompts().some((prompt) => hasEnum(prompt.argumentSchemas)) ||
      this.listResourceTemplates().some((template) => hasEnum(template.variableSchemas));
  }

  private put<T extends { source: string }>(map: Map<string, T>, key: string, entry: T, kind: string): void {
    const existing = map.get(key);
    if (existing) throw new Error(DUPLICATE_HANDLER(kind, key, existing.source, entry.source));
    map.set(key, entry);
  }

  private remove(map: Map<string, unknown>, key: string, list: McpListKind): boolean {
    const removed = map.delete(key);
    if (removed) this.announce(list);
    return removed;
  }

  private announce(list: McpListKind): void {
    this.changeSubject.next({ kind: 'list', list });
  }
}

function hasEnum(schemas: Readonly<Record<string, JsonSchemaObject>>): boolean {
  return Object.values(schemas).some((schema) => Array.isArray(schema.enum));
}
