import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_SETTINGS, REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { InputRounds, type RequestStateServices } from '../mrtr/index.js';
import { InvalidParamsError, isMcpError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { toCallToolResult, toolErrorResult } from '../results/tool-result.mapper.js';
import { isDeliberateToolError } from '../results/tool-error.js';
import { toDtoInstance, validateDto } from '../schema/index.js';
import { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import { principalOf, reportInternalError, runHandler, visibleEntries } from './handler-run.js';
import { listResult } from './pagination.js';

/** `tools/list` and `tools/call`. @internal */
@Injectable()
export class ToolsHandler {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpRegistry,
    @Inject(REQUEST_STATE_SERVICES) private readonly requestState: RequestStateServices,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async list(call: McpCall, params: JsonObject): Promise<Result> {
    const tools = await visibleEntries(call, this.registry.listTools(), McpHandlerKind.TOOL);
    return listResult('tools', tools.map((tool) => tool.definition), params.cursor, this.settings);
  }

  async call(call: McpCall, params: JsonObject): Promise<Result> {
    const name = params.name;
    if (typeof name !== 'string') throw new InvalidParamsError('tools/call needs a string "name"');
    const tool = this.registry.getTool(name);
    if (!tool) throw new InvalidParamsError(`Unknown tool: ${name}`);
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) throw new InvalidParamsError('tools/call "arguments" must be an object');

    const rounds = new InputRounds(this.requestState, { method: 'tools/call', target: name, arguments: args, principal: principalOf(call) }, params, call.meta.clientCapabilities);
    // Invalid arguments are a tool error, not a protocol error, so the model can correct itself (SEP-1303).
    const check = tool.validator.validate(args);
    if (!check.ok) return toolErrorResult(check.message);
    let dto: object | undefined;
    if (tool.dto) {
      dto = toDtoInstance(tool.dto, args);
      const problem = await validateDto(dto);
      if (problem) return toolErrorResult(problem);
    }

    try {
      const outcome = await runHandler(call, rounds, name, this.logger, (context) =>
        tool.invoke({ request: call.request, kind: McpHandlerKind.TOOL, name, arguments: args, dto, context, httpRequest: call.httpRequest }),
      );
      return outcome.kind === 'value' ? toCallToolResult(outcome.value) : outcome.result;
    } catch (error) {
      if (isMcpError(error)) throw error;
      // A failing tool is a tool result, so the model sees why. Exception filters ran before, and
      // Nest's own fallback never does, so this is the one place a failure is logged.
      if (isDeliberateToolError(error)) return toolErrorResult(error.message || 'The tool failed');
      return toolErrorResult(reportInternalError(this.logger, `Tool "${name}"`, call.request.id, error));
    }
  }
}
