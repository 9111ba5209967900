import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { McpRegistry } from '../discovery/mcp.registry.js';
import type { McpCacheOptions } from '../interfaces/handler-metadata.interface.js';
import { MCP_SETTINGS, REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { InputRounds, type RequestStateServices } from '../mrtr/index.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { CacheHints, JsonObject, Result } from '../protocol/wire.types.js';
import { toResourceContents } from '../results/resource-result.mapper.js';
import { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import { principalOf, runHandler } from './handler-run.js';
import { listResult } from './pagination.js';
import { convertStringArguments } from './string-arguments.js';

/** `resources/list`, `resources/templates/list` and `resources/read`. @internal */
@Injectable()
export class ResourcesHandler {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpRegistry,
    @Inject(REQUEST_STATE_SERVICES) private readonly requestState: RequestStateServices,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  list(_call: McpCall, params: JsonObject): Result {
    const resources = this.registry.listResources().map((resource) => resource.definition);
    return listResult('resources', resources, params.cursor, this.settings);
  }

  listTemplates(_call: McpCall, params: JsonObject): Result {
    const templates = this.registry.listResourceTemplates().map((template) => template.definition);
    return listResult('resourceTemplates', templates, params.cursor, this.settings);
  }

  async read(call: McpCall, params: JsonObject): Promise<Result> {
    const uri = params.uri;
    if (typeof uri !== 'string') throw new InvalidParamsError('resources/read needs a string "uri"');
    const resource = this.registry.getResource(uri);
    const matched = resource ? undefined : this.registry.matchResourceTemplate(uri);
    // SEP-2164: a missing resource is -32602 with the URI in data, never empty contents.
    if (!resource && !matched) throw new InvalidParamsError('Resource not found', { uri });
    const entry = resource ?? matched!.template;
    const args = matched
      ? convertStringArguments(matched.variables, matched.template.variableSchemas, new Set(), 'resources/read')
      : {};
    const rounds = new InputRounds(this.requestState, { method: 'resources/read', target: uri, arguments: {}, principal: principalOf(call) }, params, call.meta.clientCapabilities);
    const outcome = await runHandler(call, rounds, uri, this.logger, (context) =>
      entry.invoke({
        request: call.request,
        kind: matched ? McpHandlerKind.RESOURCE_TEMPLATE : McpHandlerKind.RESOURCE,
        name: uri,
        arguments: args,
        context,
        httpRequest: call.httpRequest,
      }),
    );
    if (outcome.kind === 'input_required') return outcome.result;
    const contents = toResourceContents(outcome.value, uri, entry.definition.mimeType);
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
