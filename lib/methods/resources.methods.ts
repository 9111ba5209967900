import { Inject, Injectable } from '@nestjs/common';
import { withAppMeta } from '../apps/index.js';
import type { McpCall } from '../context/mcp-call.js';
import { ResourceReadContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import type { McpCacheOptions } from '../interfaces/handler-metadata.interface.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline, type CallFamily } from '../pipeline/call-pipeline.js';
import { InvalidParamsError, ResourceNotFoundError } from '../protocol/mcp.error.js';
import type { CacheHints, JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredResource, RegisteredResourceTemplate } from '../registry/registered-handlers.js';
import { toResourceContents } from '../results/resource-result.mapper.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { convertStringArguments } from './string-arguments.js';
import { visibleEntries } from './visible-entries.js';

/** `resources/list`, `resources/templates/list` and `resources/read`. @internal */
@Injectable()
export class ResourcesMethods {
  /** resources/read, as the call pipeline runs it: a resource by its URI, else the first template the URI matches. */
  private readonly reads: CallFamily<RegisteredResource | RegisteredResourceTemplate> = {
    method: 'resources/read',
    canAsk: true,
    context: ResourceReadContext,
    find: (params) => {
      const uri = params.uri;
      if (typeof uri !== 'string') throw new InvalidParamsError('resources/read needs a string "uri"');
      const unknown = () => new ResourceNotFoundError(uri);
      const resource = this.registry.getResource(uri);
      if (resource) {
        return { kind: McpHandlerKind.RESOURCE, target: uri, entry: resource, arguments: {}, listed: { entry: resource, kind: McpHandlerKind.RESOURCE, unknown } };
      }
      const matched = this.registry.matchResourceTemplate(uri);
      if (!matched) throw unknown();
      const template = matched.template;
      return {
        kind: McpHandlerKind.RESOURCE_TEMPLATE,
        target: uri,
        entry: template,
        arguments: matched.variables,
        listed: { entry: template, kind: McpHandlerKind.RESOURCE_TEMPLATE, unknown },
      };
    },
    // A template's variables, converted to their declared types (then checked by its Standard Schema); a fixed resource takes none.
    checkArguments: async ({ entry, arguments: variables }) => {
      if (!('variableSchemas' in entry)) return { arguments: {} };
      const converted = convertStringArguments(variables, entry.variableSchemas, new Set(), 'resources/read');
      if (!entry.argumentSchema) return { arguments: converted };
      const checked = await entry.argumentSchema.validate(converted);
      if (!checked.ok) throw new InvalidParamsError(checked.message);
      return { arguments: checked.value as JsonObject };
    },
    toResult: (value, { target: uri, entry }) => {
      const contents = withAppMeta(toResourceContents(value, uri, entry.definition.mimeType), entry.definition);
      if (contents.length === 0) throw new ResourceNotFoundError(uri);
      return { resultType: 'complete', contents, ...this.cacheHints(entry.cache) };
    },
  };

  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  @RpcMethod('resources/list', { era: 'both' })
  async list(call: McpCall, params: JsonObject): Promise<Result> {
    const resources = await visibleEntries(call, this.registry.listResources(), McpHandlerKind.RESOURCE);
    return listResult('resources', resources.map((resource) => resource.definition), params.cursor, this.settings);
  }

  @RpcMethod('resources/templates/list', { era: 'both' })
  async listTemplates(call: McpCall, params: JsonObject): Promise<Result> {
    const templates = await visibleEntries(call, this.registry.listResourceTemplates(), McpHandlerKind.RESOURCE_TEMPLATE);
    return listResult('resourceTemplates', templates.map((template) => template.definition), params.cursor, this.settings);
  }

  @RpcMethod('resources/read', { inputRounds: true, era: 'both' })
  read(call: McpCall, params: JsonObject): Promise<Result> {
    return this.pipeline.call(this.reads, call, params);
  }

  private cacheHints(own?: McpCacheOptions): CacheHints {
    return {
      ttlMs: own?.ttlMs ?? this.settings.cache.ttlMs,
      cacheScope: own?.cacheScope ?? this.settings.cache.cacheScope,
    };
  }
}
