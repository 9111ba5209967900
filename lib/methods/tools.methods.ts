import { Inject, Injectable, IntrinsicException, Logger } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { ToolCallContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline } from '../pipeline/call-pipeline.js';
import { reportInternalError } from '../protocol/internal-error.js';
import { TaskRunner } from '../tasks/task-runner.js';
import { InvalidParamsError, isMcpError, MissingRequiredClientCapabilityError } from '../protocol/mcp.error.js';
import { TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import { TaskStartSignal, type TaskRounds } from '../mrtr/index.js';
import { declaresTasks, taskFields, type TaskRecord } from '../tasks/task-record.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredTool } from '../registry/registered-handlers.js';
import { toCallToolResult, toolErrorResult } from '../results/tool-result.mapper.js';
import { isDeliberateToolError } from '../results/tool-error.js';
import { toDtoInstance, validateDto } from '../schema/index.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { visibleEntries } from './visible-entries.js';

/** Invalid tool arguments: answered as a tool error, so the model can correct itself (SEP-1303). */
class ToolArgumentsError extends IntrinsicException {}

/** `tools/list` and `tools/call`. @internal */
@Injectable()
export class ToolsMethods {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
    private readonly tasks: TaskRunner,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  @RpcMethod('tools/list', { era: 'both' })
  async list(call: McpCall, params: JsonObject): Promise<Result> {
    const tools = await visibleEntries(call, this.registry.listTools(), McpHandlerKind.TOOL);
    return listResult('tools', tools.map((tool) => tool.definition), params.cursor, this.settings);
  }

  @RpcMethod('tools/call', { inputRounds: true, era: 'both' })
  async call(call: McpCall, params: JsonObject): Promise<Result> {
    const name = params.name;
    if (typeof name !== 'string') throw new InvalidParamsError('tools/call needs a string "name"');
    const tool = this.registry.getTool(name);
    if (!tool) throw new InvalidParamsError(`Unknown tool: ${name}`);
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) throw new InvalidParamsError('tools/call "arguments" must be an object');
    if (!tool.task) return this.execute(call, tool, args, params);
    if (!declaresTasks(call.meta.clientCapabilities)) {
      if (tool.task === 'required') throw new MissingRequiredClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
      return this.execute(call, tool, args, params);
    }
    if (tool.taskStart !== 'explicit') return this.createTask(call, params);
    // The synchronous part: ordinary input rounds, until the handler calls ctx.startTask().
    const startTask = (): never => {
      throw new TaskStartSignal();
    };
    try {
      return await this.execute({ ...call, startTask }, tool, args, params);
    } catch (error) {
      if (error instanceof TaskStartSignal) return this.createTask(call, params, error.answered);
      throw error;
    }
  }

  /** Announced only once stored, so a tasks/get on any instance finds it; the work starts after. */
  private async createTask(call: McpCall, params: JsonObject, answered?: TaskStartSignal['answered']): Promise<Result> {
    const record = await this.tasks.create(call, params, answered);
    this.startTask(record, call.httpRequest);
    return { resultType: 'task', ...taskFields(record) };
  }

  /**
   * Runs (or, after `tasks/update` answered its question, replays) a task's handler in the
   * background; a tool removed meanwhile fails the task as an unknown tool would fail the call.
   */
  startTask(record: TaskRecord, httpRequest: unknown): void {
    this.tasks.start(record, httpRequest, async (call, rounds) => {
      const name = call.request.params?.name;
      const tool = typeof name === 'string' ? this.registry.getTool(name) : undefined;
      if (!tool) throw new InvalidParamsError(`Unknown tool: ${String(name)}`);
      const args = call.request.params?.arguments;
      return this.execute(call, tool, isPlainObject(args) ? args : {}, {}, rounds);
    });
  }

  /** One run of the tool's handler, answered as a CallToolResult (tool errors included) or input_required. */
  private async execute(call: McpCall, tool: RegisteredTool, args: JsonObject, params: JsonObject, taskRounds?: TaskRounds): Promise<Result> {
    const name = tool.definition.name;
    try {
      const outcome = await this.pipeline.run(call, {
        kind: McpHandlerKind.TOOL,
        target: name,
        entry: tool,
        rawArguments: args,
        checkArguments: (raw) => checkToolArguments(tool, raw),
        rounds: { method: 'tools/call', arguments: args, params },
        taskRounds,
        createContext: (...parts) => new ToolCallContext(...parts),
      });
      return outcome.kind === 'value' ? toCallToolResult(outcome.value) : outcome.result;
    } catch (error) {
      if (isMcpError(error) || error instanceof TaskStartSignal) throw error;
      if (error instanceof ToolArgumentsError) return toolErrorResult(error.message);
      // A failing tool is a tool result, so the model sees why. Exception filters ran before, and
      // Nest's own fallback never does, so this is the one place a failure is logged.
      if (isDeliberateToolError(error)) return toolErrorResult(error.message || 'The tool failed');
      return toolErrorResult(reportInternalError(this.logger, `Tool "${name}"`, call.request.id, error));
    }
  }
}

/** JSON Schema first, then the DTO's class-validator rules. */
async function checkToolArguments(tool: RegisteredTool, args: JsonObject): Promise<{ arguments: JsonObject; dto?: object }> {
  const check = tool.validator.validate(args);
  if (!check.ok) throw new ToolArgumentsError(check.message);
  if (!tool.dto) return { arguments: args };
  const dto = toDtoInstance(tool.dto, args);
  const problem = await validateDto(dto);
  if (problem) throw new ToolArgumentsError(problem);
  return { arguments: args, dto };
}
