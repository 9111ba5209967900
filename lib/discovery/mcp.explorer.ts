import { ForbiddenException, Injectable, Logger, UnauthorizedException, type CanActivate, type OnModuleInit } from '@nestjs/common';
import { ContextIdFactory, DiscoveryService, ExternalContextCreator, MetadataScanner, ModuleRef } from '@nestjs/core';
import type { ExternalExceptionsHandler } from '@nestjs/core/exceptions/external-exceptions-handler.js';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { Injector } from '@nestjs/core/injector/injector.js';
import type { ContextId, InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { McpForbiddenError, McpUnauthorizedError } from '../auth/mcp-auth.errors.js';
import { isInputRequiredSignal } from '../mrtr/input-required.signal.js';
import { McpError } from '../protocol/mcp.error.js';
import { NestEnhancers } from './nest-enhancers.js';
import { createMcpParamDecorator } from '../decorators/param.utils.js';
import { McpParamtype } from '../enums/mcp-paramtype.enum.js';
import type {
  McpCompleteOptions,
  McpPromptMetadata,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpToolMetadata,
} from '../interfaces/handler-metadata.interface.js';
import { MCP_CONTEXT_TYPE, MCP_PARAM_ARGS_METADATA } from '../mcp.constants.js';
import {
  ANY_VALUE_ARGUMENT,
  ANY_VALUE_PROPERTY,
  EMPTY_DTO_SCHEMA,
  INVALID_HEADER_PARAM,
  INVALID_RESOURCE,
  INVALID_TOOL_NAME,
  MISSING_DESCRIPTION,
  MIXED_ARGUMENT_STYLES,
  UNDECORATED_PARAMETER,
  UNTYPED_ARRAY_ARGUMENT,
  UNTYPED_ARRAY_PROPERTY,
} from '../mcp.messages.js';
import type { JsonSchemaObject, Prompt, PromptArgument, Tool } from '../protocol/wire.types.js';
import {
  ArgumentValidator,
  assertObjectRootSchema,
  assertValidSchema,
  composeObjectSchema,
  dtoToJsonSchema,
  schemaForDesignType,
} from '../schema/index.js';
import { dtoSchemaHoles } from '../schema/dto-schema.factory.js';
import { isDtoClass, schemaHole } from '../schema/schema-helpers.js';
import { McpMetadataAccessor, type McpParamMetadata } from './mcp-metadata.accessor.js';
import { McpParamsFactory, type McpInvocation } from './mcp-params.factory.js';
import { McpRegistry } from './mcp.registry.js';
import {
  completionKey,
  type RegisteredCompletion,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
} from './registered-handlers.js';
import { UriTemplate } from './uri-template.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** A provider method found at start-up, with everything needed to call it. @internal */
export interface DiscoveredMethod {
  wrapper: InstanceWrapper;
  instance: object;
  prototype: object;
  methodName: string;
  classRef: Function;
  source: string;
}

/**
 * Finds `@McpTool` (and the other handler decorators) on provider and controller methods at
 * start-up, builds their schemas once and registers ready-to-call handlers. Each handler is
 * invoked through Nest's ExternalContextCreator, so guards, interceptors and pipes apply; exception
 * filters are run by the invoker itself (see `handleError`).
 * @internal
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  private readonly logger = new Logger('McpModule');
  private readonly paramsFactory = new McpParamsFactory();
  private readonly injector = new Injector();
  private readonly enhancers: NestEnhancers;
  /** DTO properties already warned about: a DTO used by several handlers is reported once. */
  private readonly warnedProperties = new Map<Function, Set<string>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: McpMetadataAccessor,
    private readonly externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly registry: McpRegistry,
  ) {
    this.enhancers = new NestEnhancers(externalContextCreator);
  }

  onModuleInit(): void {
    for (const method of this.discoverMethods()) {
      const handler = (method.prototype as Record<string, Function>)[method.methodName];
      const tool = this.accessor.getToolMetadata(handler);
      if (tool) this.registry.registerTool(this.createTool(method, tool));
      const prompt = this.accessor.getPromptMetadata(handler);
      if (prompt) this.registry.registerPrompt(this.createPrompt(method, prompt));
      const resource = this.accessor.getResourceMetadata(handler);
      if (resource) this.registry.registerResource(this.createResource(method, resource));
      const template = this.accessor.getResourceTemplateMetadata(handler);
      if (template) this.registry.registerResourceTemplate(this.createResourceTemplate(method, template));
      const completion = this.accessor.getCompleteMetadata(handler);
      if (completion) this.registry.registerCompletion(this.createCompletion(method, completion));
    }
    const registry = this.registry;
    this.logger.log(
      `Mapped ${registry.listTools().length} tool(s), ${registry.listPrompts().length} prompt(s), ` +
        `${registry.listResources().length} resource(s), ${registry.listResourceTemplates().length} resource template(s)`,
    );
  }

  /** Every method of every provider and controller instance (aliases and value providers of primitives skipped). */
  discoverMethods(): DiscoveredMethod[] {
    const found: DiscoveredMethod[] = [];
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const { instance } = wrapper;
      if (wrapper.isAlias || !instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      if (!prototype || prototype === Object.prototype) continue;
      // Factory and value providers have no metatype of their own: the instance's class is the truth.
      const classRef = instance.constructor as Function;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        found.push({ wrapper, instance, prototype, methodName, classRef, source: `${classRef.name}.${methodName}()` });
      }
    }
    return found;
  }

  private createTool(method: DiscoveredMethod, metadata: McpToolMetadata): RegisteredTool {
    const { source } = method;
    if (!TOOL_NAME.test(metadata.name)) throw new Error(INVALID_TOOL_NAME(metadata.name, source));
    if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('tool', source));

    const { inputSchema, dto, headerParams } = this.buildInputSchema(method, metadata.inputSchema);
    const outputSchema = this.buildOutputSchema(method, metadata.output);
    const definition: Tool = {
      name: metadata.name,
      ...(metadata.title ? { title: metadata.title } : {}),
      description: metadata.description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
      ...(metadata.icons ? { icons: metadata.icons } : {}),
      ...(metadata._meta ? { _meta: metadata._meta } : {}),
    };
    return {
      definition,
      source,
      validator: new ArgumentValidator(inputSchema),
      dto,
      headerParams,
      invoke: this.createInvoker(method),
      ...(metadata.hideWhenDenied ? { canList: this.createGuardProbe(method) } : {}),
    };
  }

  private createPrompt(method: DiscoveredMethod, metadata: McpPromptMetadata): RegisteredPrompt {
    if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('prompt', method.source));
    const { schemas, required, dto } = this.stringArguments(method);
    const promptArguments: PromptArgument[] = Object.entries(schemas).map(([name, schema]) => ({
      name,
      ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      required: required.has(name),
    }));
    const definition: Prompt = {
      name: metadata.name,
      ...(metadata.title ? { title: metadata.title } : {}),
      description: metadata.description,
      ...(promptArguments.length ? { arguments: promptArguments } : {}),
      ...(metadata.icons ? { icons: metadata.icons } : {}),
      ...(metadata._meta ? { _meta: metadata._meta } : {}),
    };
    return {
      definition,
      source: method.source,
      argumentSchemas: schemas,
      dto,
      invoke: this.createInvoker(method),
      ...(metadata.hideWhenDenied ? { canList: this.createGuardProbe(method) } : {}),
    };
  }

  private createResource(method: DiscoveredMethod, metadata: McpResourceOptions): RegisteredResource {
    const { cache, ...definition } = metadata;
    if (!URL.canParse(definition.uri)) throw new Error(INVALID_RESOURCE(method.source, `"${definition.uri}" is not an absolute URI`));
    return { definition, source: method.source, cache, invoke: this.createInvoker(method) };
  }

  private createResourceTemplate(method: DiscoveredMethod, metadata: McpResourceTemplateOptions): RegisteredResourceTemplate {
    const { cache, ...definition } = metadata;
    const template = new UriTemplate(metadata.uriTemplate);
    const { schemas } = this.stringArguments(method);
    const unknown = Object.keys(schemas).filter((name) => !template.variables.includes(name));
    if (unknown.length > 0) {
      throw new Error(INVALID_RESOURCE(method.source, `@McpArg ${unknown.join(', ')} is not a variable of "${metadata.uriTemplate}"`));
    }
    const variableSchemas = Object.fromEntries(template.variables.map((name) => [name, Object.hasOwn(schemas, name) ? schemas[name] : { type: 'string' }]));
    return { definition, source: method.source, template, variableSchemas, cache, invoke: this.createInvoker(method) };
  }

  private createCompletion(method: DiscoveredMethod, metadata: McpCompleteOptions): RegisteredCompletion {
    const ref = metadata.prompt !== undefined
      ? { type: 'prompt' as const, id: metadata.prompt }
      : metadata.resourceTemplate !== undefined
        ? { type: 'resource' as const, id: metadata.resourceTemplate }
        : undefined;
    if (!ref) throw new Error(`@McpComplete() on ${method.source} needs a prompt or a resourceTemplate`);
    // The method takes (value, context); those two positions are filled in by the params factory.
    if (this.accessor.getParams(method.classRef, method.methodName).length === 0) {
      createMcpParamDecorator(McpParamtype.ARG)('value')(method.prototype, method.methodName, 0);
      createMcpParamDecorator(McpParamtype.ARG)('context')(method.prototype, method.methodName, 1);
    }
    const invoke = this.createInvoker(method);
    return {
      key: completionKey(ref, metadata.argument),
      source: method.source,
      complete: (value, contextArguments) =>
        invoke({
          request: { jsonrpc: '2.0', id: 0, method: 'completion/complete' },
          kind: 'completion',
          name: ref.id,
          arguments: { value, context: { arguments: contextArguments } },
          context: undefined as never,
        }),
    };
  }

  /**
   * Arguments that arrive as strings (prompt arguments, template variables): their schemas (for
   * conversion, enum completion, titles and descriptions) and which are required.
   */
  private stringArguments(method: DiscoveredMethod): { schemas: Record<string, JsonSchemaObject>; required: Set<string>; dto?: Function } {
    const { inputSchema, dto } = this.buildInputSchema(method);
    const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchemaObject>;
    return { schemas: properties, required: new Set((inputSchema.required as string[] | undefined) ?? []), dto };
  }

  /** The arguments' JSON Schema, generated once from the DTO or the named parameters. */
  buildInputSchema(
    method: DiscoveredMethod,
    explicit?: JsonSchemaObject & { type: 'object' },
  ): { inputSchema: Tool['inputSchema']; dto?: Function; headerParams?: Map<string, string> } {
    const { classRef, prototype, methodName, source } = method;
    const types = this.accessor.getParamTypes(prototype, methodName);
    let params = this.accessor.getParams(classRef, methodName);
    const isArgument = (param: McpParamMetadata) => param.type === McpParamtype.ARGS || param.type === McpParamtype.ARG;
    if (!explicit && !params.some(isArgument)) {
      // Convenience: a single undecorated DTO parameter takes the arguments, as if it had @McpArgs().
      const decorated = new Set(params.map((param) => param.index));
      const candidates = types.map((type, index) => ({ type, index })).filter(({ index }) => !decorated.has(index));
      if (candidates.length === 1 && isDtoClass(candidates[0].type)) {
        createMcpParamDecorator(McpParamtype.ARGS)()(prototype, methodName, candidates[0].index);
        params = this.accessor.getParams(classRef, methodName);
      }
    }
    assertEveryParameterDecorated(types, params, source);
    if (explicit) {
      assertValidSchema(explicit, source);
      assertObjectRootSchema(explicit, source);
      return { inputSchema: explicit };
    }
    const whole = params.filter((param) => param.type === McpParamtype.ARGS);
    const named = params.filter((param) => param.type === McpParamtype.ARG);
    if (whole.length > 0 && named.length > 0) throw new Error(MIXED_ARGUMENT_STYLES(source));
    if (whole.length > 0) {
      const type = types[whole[0].index];
      if (!isDtoClass(type)) return { inputSchema: { type: 'object' } };
      this.warnIfEmptyDto(type, source, 'input');
      this.warnAboutDtoHoles(type, source);
      return { inputSchema: dtoToJsonSchema(type) as Tool['inputSchema'], dto: type };
    }
    if (named.length === 0) return { inputSchema: composeObjectSchema([], { additionalProperties: false }) };
    const options = this.accessor.getArgOptions(classRef, methodName);
    const args = named.map((param) => {
      const argOptions = options[param.index] ?? {};
      const name = String(param.data);
      const schema = schemaForDesignType(types[param.index], argOptions);
      // An explicit `schema` is the author's word, even when it is `{}`.
      if (argOptions.schema === undefined) this.warnAboutArgumentHoles(name, schema, [types[param.index], argOptions.items], source);
      return {
        name,
        schema: argOptions.title ? { ...schema, title: argOptions.title } : schema,
        required: argOptions.required !== false,
        header: argOptions.header,
      };
    });
    const headerParams = headerParameters(args, source);
    const inputSchema = composeObjectSchema(
      args.map(({ name, schema, required, header }) => ({ name, required, schema: header ? { ...schema, 'x-mcp-header': header } : schema })),
      { where: source },
    ) as Tool['inputSchema'];
    assertValidSchema(inputSchema, source);
    return { inputSchema, headerParams };
  }

  private buildOutputSchema(method: DiscoveredMethod, output: McpToolMetadata['output']): JsonSchemaObject | undefined {
    if (output && typeof output === 'object') {
      assertValidSchema(output, method.source);
      return output;
    }
    const type = output ?? this.accessor.getReturnType(method.prototype, method.methodName);
    if (!isDtoClass(type)) return undefined;
    // Loose output properties only describe less; they let no bad input through, so only an empty DTO is reported.
    this.warnIfEmptyDto(type, method.source, 'output');
    return dtoToJsonSchema(type);
  }

  /** Warns about a named argument whose schema lets any value (or any array item) through. */
  private warnAboutArgumentHoles(name: string, schema: JsonSchemaObject, types: readonly unknown[], source: string): void {
    const hole = schemaHole(schema);
    if (hole === 'any') this.logger.warn(ANY_VALUE_ARGUMENT(source, name));
    if (hole === 'untyped-array') this.logger.warn(UNTYPED_ARRAY_ARGUMENT(source, name));
    for (const type of types) if (isDtoClass(type)) this.warnAboutDtoHoles(type, source);
  }

  /** Warns once per DTO property (of `dto` or the DTOs nested in it) that lets any value through. */
  private warnAboutDtoHoles(dto: Function, source: string): void {
    for (const { dto: owner, property, hole } of dtoSchemaHoles(dto)) {
      let warned = this.warnedProperties.get(owner);
      if (warned === undefined) this.warnedProperties.set(owner, (warned = new Set()));
      if (warned.has(property)) continue;
      warned.add(property);
      this.logger.warn(hole === 'any' ? ANY_VALUE_PROPERTY(source, owner.name, property) : UNTYPED_ARRAY_PROPERTY(source, owner.name, property));
    }
  }

  private warnIfEmptyDto(dto: Function, source: string, role: 'input' | 'output'): void {
    if (Object.keys(dtoToJsonSchema(dto).properties).length === 0) this.logger.warn(EMPTY_DTO_SCHEMA(source, dto.name, role));
  }

  /**
   * Wraps the method with Nest's enhancers: guards, interceptors and pipes through
   * ExternalContextCreator, then exception filters (run here, see `handleError`). Static providers
   * are wrapped once; request-scoped ones get a fresh instance per call, with `REQUEST` bound to the
   * HTTP request (or the MCP request).
   */
  createInvoker(method: DiscoveredMethod): (invocation: McpInvocation) => Promise<unknown> {
    const resolve = this.createResolver(method);
    return async (invocation) => {
      const enhanced = await resolve(invocation);
      try {
        return await enhanced.handler(invocation);
      } catch (error) {
        return this.handleError(error, enhanced, method, invocation);
      }
    };
  }

  /**
   * For `hideWhenDenied`: runs only the method's guards (global, class, method) against a probe
   * invocation. A guard that returns false or throws hides the entry.
   */
  createGuardProbe(method: DiscoveredMethod): (invocation: McpInvocation) => Promise<boolean> {
    const resolve = this.createResolver(method);
    return async (invocation) => {
      try {
        const enhanced = await resolve(invocation);
        return await this.enhancers.tryActivate(enhanced.guards, [invocation], enhanced.target, enhanced.callback, MCP_CONTEXT_TYPE);
      } catch {
        return false;
      }
    };
  }

  /** The enhanced handler for an invocation, made once (static, transient) or per request (request-scoped). */
  private createResolver(method: DiscoveredMethod): (invocation: McpInvocation) => Promise<EnhancedHandler> {
    const { wrapper, instance } = method;
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      let enhanced: EnhancedHandler | undefined;
      return async () => (enhanced ??= this.enhance(method, instance));
    }
    if (wrapper.isDependencyTreeStatic()) {
      // A transient provider: MCP gets one instance of its own, made on first use.
      let enhanced: Promise<EnhancedHandler> | undefined;
      return async () => {
        enhanced ??= this.injector
          .loadPerContext(instance, wrapper.host!, wrapper.host!.providers, ContextIdFactory.create(), wrapper)
          .then((own) => this.enhance(method, own as object));
        return enhanced;
      };
    }
    return async (invocation) => {
      const request = invocation.httpRequest ?? invocation.request;
      const contextId = ContextIdFactory.getByRequest(request as object);
      this.moduleRef.registerRequestByContextId(request, contextId);
      const scoped = await this.injector.loadPerContext(instance, wrapper.host!, wrapper.host!.providers, contextId, wrapper);
      return this.enhance(method, scoped as object, contextId);
    };
  }

  private enhance(method: DiscoveredMethod, target: object, contextId?: ContextId): EnhancedHandler {
    const { wrapper, prototype, methodName, classRef } = method;
    const callback = (prototype as Record<string, (...args: unknown[]) => unknown>)[methodName];
    const inquirerId = contextId
      ? wrapper.id
      : wrapper.host?.entryProviders?.find((item) => item.token === classRef || item.instance === target)?.id;
    const moduleKey = wrapper.host?.token ?? this.externalContextCreator.getContextModuleKey(classRef);
    const handler = this.externalContextCreator.create(
      target,
      callback,
      methodName,
      MCP_PARAM_ARGS_METADATA,
      this.paramsFactory,
      contextId,
      contextId ? wrapper.id : undefined,
      // Filters are run by handleError(), so that unhandled errors are logged once, with the request id.
      { guards: true, interceptors: true, filters: false },
      MCP_CONTEXT_TYPE,
    ) as (invocation: McpInvocation) => Promise<unknown>;
    return {
      target,
      callback,
      handler,
      guards: this.enhancers.guards(target, callback, moduleKey, contextId, inquirerId),
      filters: this.enhancers.filters(target, callback, moduleKey, contextId, inquirerId),
    };
  }

  /**
   * Gives the method's exception filters (`@UseFilters()` on the method or class, global filters)
   * the error. A filter that returns a value answers the call with it, as if the method had
   * returned it (for a tool: a `CallToolResult`, e.g. `toolError('…')`, or anything else the
   * result mapping accepts); one that throws replaces the error. Unhandled errors go on to the
   * method handlers, which answer (and log) them once. The MRTR signal never reaches filters.
   * Guard denials (`ForbiddenException`, `UnauthorizedException`) become JSON-RPC errors.
   */
  private async handleError(error: unknown, enhanced: EnhancedHandler, method: DiscoveredMethod, invocation: McpInvocation): Promise<unknown> {
    if (isInputRequiredSignal(error) || enhanced.filters === undefined) throw toAccessError(error);
    let failure = error;
    try {
      const host = new ExecutionContextHost([invocation], method.classRef as never, enhanced.callback);
      host.setType(MCP_CONTEXT_TYPE);
      const handled = enhanced.filters.invokeCustomFilters(error, host);
      if (handled !== undefined) {
        const value = await handled;
        if (value !== undefined) return value;
      }
    } catch (rethrown) {
      failure = rethrown;
    }
    throw toAccessError(failure);
  }
}

/** The handler with its enhancers, for one instance. @internal */
interface EnhancedHandler {
  target: object;
  callback: (...args: unknown[]) => unknown;
  handler: (invocation: McpInvocation) => Promise<unknown>;
  guards: CanActivate[];
  filters?: ExternalExceptionsHandler;
}

/** Nest's access exceptions (what a denying guard throws) → the module's JSON-RPC errors. */
function toAccessError(error: unknown): unknown {
  if (error instanceof McpError) return error;
  if (error instanceof ForbiddenException) return new McpForbiddenError(error.message);
  if (error instanceof UnauthorizedException) return new McpUnauthorizedError(error.message);
  return error;
}

/**
 * Every parameter must say what it receives: an undecorated one is always `undefined` (MCP fills
 * only decorated parameters), so the method would compute from a value no client can send.
 * Context and custom (`createParamDecorator`) decorators count as decorated.
 */
function assertEveryParameterDecorated(types: readonly unknown[], params: readonly McpParamMetadata[], source: string): void {
  const decorated = new Set(params.map((param) => param.index));
  types.forEach((type, index) => {
    if (!decorated.has(index)) throw new Error(UNDECORATED_PARAMETER(source, index + 1, typeof type === 'function' ? type.name : String(type)));
  });
}

/** RFC 9110 token characters: what an `x-mcp-header` name may use. */
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Checks the `header` options (SEP-2243 rules) and maps each mirrored property to its header name. */
function headerParameters(
  args: { name: string; schema: JsonSchemaObject; header?: string }[],
  source: string,
): Map<string, string> | undefined {
  const headers = new Map<string, string>();
  const seen = new Set<string>();
  for (const { name, schema, header } of args) {
    if (header === undefined) continue;
    if (!HEADER_TOKEN.test(header)) throw new Error(INVALID_HEADER_PARAM(source, name, 'the header name must be an HTTP token'));
    if (!HEADER_TYPES.has(schema.type as string)) {
      throw new Error(INVALID_HEADER_PARAM(source, name, 'only string, integer and boolean arguments can be mirrored'));
    }
    if (seen.has(header.toLowerCase())) throw new Error(INVALID_HEADER_PARAM(source, name, `header "${header}" is used twice`));
    seen.add(header.toLowerCase());
    headers.set(name, header);
  }
  return headers.size > 0 ? headers : undefined;
}
