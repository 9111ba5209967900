import { Inject, Injectable } from '@nestjs/common';
import { withAppMeta } from '../apps/index.js';
import type { McpCall } from '../context/mcp-call.js';
import { ResourceReadContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import type { McpCacheOptions } from '../interfaces/handler-metadata.interface.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline } from '../pipeline/call-pipeline.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { CacheHints, JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { toResourceContents } from '../results/resource-result.mapper.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { convertStringArguments } from './string-arguments.js';

/** `resources/list`, `resources/templates/list` and `resources/read`. @internal */
@Injectable()
export class ResourcesMethods {
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
  async read(call: McpCall, params: JsonObject): Promise<Result> {
    const uri = params.uri;
    if (typeof uri !== 'string') throw new InvalidParamsError('resources/read needs a string "uri"');
    const resource = this.registry.getResource(uri);
    const matched = resource ? undefined : this.registry.matchResourceTemplate(uri);
    // SEP-2164: a missing resource is -32602 with the URI in data, never empty contents.
    if (!resource && !matched) throw new InvalidParamsError('Resource not found', { uri });
    const entry = resource ?? matched!.template;
    const outcome = await this.pipeline.run(call, {
      kind: matched ? McpHandlerKind.RESOURCE_TEMPLATE : McpHandlerKind.RESOURCE,
      target: uri,
      entry,
      rawArguments: matched?.variables ?? {},
      checkArguments: (variables) => ({
        arguments: matched ? convertStringArguments(variables, matched.template.variableSchemas, new Set(), 'resources/read') : {},
      }),
      rounds: { method: 'resources/read', arguments: {}, params },
      createContext: (...parts) => new ResourceReadContext(...parts),
    });
    if (outcome.kind === 'input_required') return outcome.result;
    const contents = withAppMeta(toResourceContents(outcome.value, uri, entry.definition.mimeType), entry.definition);
    if (contents.length === 0) throw new InvalidParamsError('Resource not found', { uri });
    return { resultType: 'complete', contents, ...this.cacheHints(entry.cache) };
  }

  private cacheHints(own?: McpCacheOptions): CacheHints {
    return {
      ttlMs: own?.ttlMs ?? this.settings.cache.ttlMs,
      cacheScope: own?.cacheScope ?? this.settings.cache.cacheScope,
    };
  }
}
