import { Inject, Injectable } from '@nestjs/common';
import { withAppMeta } from '../apps/index.js';
import type { McpCall } from '../context/mcp-call.js';
import { ResourceReadContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import type { McpCacheOptions } from '../interfaces/handler-metadata.interface.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline, type CallFamily } from '../pipeline/call-pipeline.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { CacheHints, JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredResource, RegisteredResourceTemplate } from '../registry/registered-handlers.js';
import { toResourceContents } from '../results/resource-result.mapper.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { convertStringArguments } from './string-arguments.js';

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
      const resource = this.registry.getResource(uri);
      if (resource) return { kind: McpHandlerKind.RESOURCE, target: uri, entry: resource, arguments: {} };
      const matched = this.registry.matchResourceTemplate(uri);
      // SEP-2164: a missing resource is -32602 with the URI in data, never empty contents.
      if (!matched) throw new InvalidParamsError('Resource not found', { uri });
      return { kind: McpHandlerKind.RESOURCE_TEMPLATE, target: uri, entry: matched.template, arguments: matched.variables };
    },
    // A template's variables, converted to their declared types; a fixed resource takes none.
    checkArguments: ({ entry, arguments: variables }) => ({
      arguments: 'variableSchemas' in entry ? convertStringArguments(variables, entry.variableSchemas, new Set(), 'resources/read') : {},
    }),
    toResult: (value, { target: uri, entry }) => {
      const contents = withAppMeta(toResourceContents(value, uri, entry.definition.mimeType), entry.definition);
      if (contents.length === 0) throw new InvalidParamsError('Resource not found', { uri });
      return { resultType: 'complete', contents, ...this.cacheHints(entry.cache) };
    },
  };

  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  @RpcMethod('resources/list', { era: 'both' })
  list(_call: McpCall, params: JsonObject): Result {
    const resources = this.registry.listResources().map((resource) => resource.definition);
    return listResult('resources', resources, params.cursor, this.settings);
  }

  @RpcMethod('resources/templates/list', { era: 'both' })
  listTemplates(_call: McpCall, params: JsonObject): Result {
    const templates = this.registry.listResourceTemplates().map((template) => template.definition);
    return listResult('resourceTemplates', templates, params.cursor, this.settings);
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
