import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { APP_LINK_MISSING, inlineAppResource, linkedAppUri, linkedToolMeta } from '../apps/index.js';
import { McpDefinitionFactory } from '../definitions/definition.factory.js';
import { extractsMcpParameters, type HandlerMethod } from '../definitions/handler-method.js';
import { McpInvokerFactory, type InvocableMethod } from '../invocation/invoker.factory.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { McpRouteTools } from '../routes/index.js';
import { McpSkills } from '../skills/index.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';

/** A provider method found at start-up. @internal */
interface DiscoveredMethod extends InvocableMethod {
  prototype: object;
  source: string;
  /** A controller's method: a route handler marked `@McpTool()` becomes a route tool. */
  controller: boolean;
}

/**
 * The start-up scanner, as `@nestjs/schedule`'s explorer: finds `@McpTool` (and the other handler
 * decorators) on provider and controller methods and hands each one on: its metadata to the
 * definition factory, the method to the invoker factory, the result to the registry. It reads
 * metadata and writes none.
 * @internal
 */
@Injectable()
export class McpExplorer implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');
  private readonly definitions = new McpDefinitionFactory(this.logger);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: McpMetadataAccessor,
    private readonly invokers: McpInvokerFactory,
    private readonly registry: McpRegistry,
    private readonly skills: McpSkills,
    private readonly routes: McpRouteTools,
  ) {}

  onModuleInit(): void {
    for (const method of this.discoverMethods()) this.register(method);
    const registry = this.registry;
    this.logger.log(
      `Mapped ${registry.listTools().length} tool(s), ${registry.listPrompts().length} prompt(s), ` +
        `${registry.listResources().length} resource(s), ${registry.listResourceTemplates().length} resource template(s)`,
    );
  }

  /**
   * After every module's start-up code (run-time additions included): a tool linked to an MCP App
   * that no resource serves would hand hosts a dead link, so the application does not start.
   */
  onApplicationBootstrap(): void {
    for (const tool of this.registry.listTools()) {
      const uri = linkedAppUri(tool.definition);
      if (uri && !this.registry.getResource(uri) && !this.registry.matchResourceTemplate(uri)) {
        throw new Error(APP_LINK_MISSING(tool.definition.name, tool.source, uri));
      }
    }
  }

  private register(method: DiscoveredMethod): void {
    const handler = (method.prototype as Record<string, Function>)[method.methodName];
    const { accessor, definitions, registry } = this;
    const read = (): HandlerMethod => accessor.getHandlerMethod(method.classRef, method.prototype, method.methodName, method.source);
    const callable = (handlerMethod: HandlerMethod) => ({
      invoke: this.invokers.createInvoker(method),
      extractsParameters: extractsMcpParameters(handlerMethod.params),
    });
    const listable = (hideWhenDenied?: boolean) => (hideWhenDenied ? { canList: this.invokers.createGuardProbe(method) } : {});

    const tool = accessor.getToolMetadata(handler);
    const ui = accessor.getUiMetadata(handler);
    if (ui && !tool) throw new Error(`@McpUi() on ${method.source} needs @McpTool() on the same method`);
    const route = tool && method.controller ? this.routes.routeOf(method) : undefined;
    if (tool && route) {
      if (ui) throw new Error(`@McpUi() on route ${method.source}: an MCP App is linked to a provider tool`);
      registry.registerTool(this.routes.tool(method, route, read(), tool, definitions));
    } else if (tool) {
      const handlerMethod = read();
      const metadata = ui ? { ...tool, _meta: linkedToolMeta(tool._meta, ui, method.source) } : tool;
      registry.registerTool({ ...definitions.tool(handlerMethod, metadata), ...callable(handlerMethod), ...listable(tool.hideWhenDenied) });
      const app = ui && inlineAppResource(ui, tool.name, method.source);
      if (app) registry.registerResource({ ...definitions.resource(method.source, app.options), invoke: async () => app.html });
    }
    const prompt = accessor.getPromptMetadata(handler);
    if (prompt) {
      const handlerMethod = read();
      registry.registerPrompt({ ...definitions.prompt(handlerMethod, prompt), ...callable(handlerMethod), ...listable(prompt.hideWhenDenied) });
    }
    const resource = accessor.getResourceMetadata(handler);
    if (resource) registry.registerResource({ ...definitions.resource(method.source, resource), ...callable(read()), ...listable(resource.hideWhenDenied) });
    const template = accessor.getResourceTemplateMetadata(handler);
    if (template) {
      const handlerMethod = read();
      registry.registerResourceTemplate({
        ...definitions.resourceTemplate(method.source, template, handlerMethod),
        ...callable(handlerMethod),
        ...listable(template.hideWhenDenied),
      });
    }
    const skill = accessor.getSkillMetadata(handler);
    // Produced once, at start-up, like a factory provider: no request, so no pipeline.
    if (skill) this.skills.addProducer({ options: skill, source: method.source, produce: () => handler.call(method.instance) });
    const completion = accessor.getCompleteMetadata(handler);
    if (completion) {
      const { key, source } = definitions.completion(method.source, completion);
      registry.registerCompletion({ key, source, ...callable(read()) });
    }
  }

  /** Every method of every provider and controller instance (aliases and value providers of primitives skipped). */
  private discoverMethods(): DiscoveredMethod[] {
    const found: DiscoveredMethod[] = [];
    const controllers = new Set(this.discovery.getControllers());
    for (const wrapper of [...this.discovery.getProviders(), ...controllers]) {
      const { instance } = wrapper;
      const controller = controllers.has(wrapper);
      if (wrapper.isAlias || !instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      if (!prototype || prototype === Object.prototype) continue;
      // Factory and value providers have no metatype of their own: the instance's class is the truth.
      const classRef = instance.constructor as Function;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        found.push({ wrapper, instance, prototype, methodName, classRef, controller, source: `${classRef.name}.${methodName}()` });
      }
    }
    return found;
  }
}
