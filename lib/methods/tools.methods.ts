import { Inject, Injectable, IntrinsicException, Logger } from '@nestjs/common';
import { withStartTask, type McpCall } from '../context/mcp-call.js';
import { ToolCallContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline, type CallFamily, type CheckedArguments, type Found } from '../pipeline/call-pipeline.js';
import { reportInternalError } from '../protocol/internal-error.js';
import { TaskRunner } from '../tasks/task-runner.js';
import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../protocol/mcp.error.js';
import { TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import { TaskStartSignal } from '../mrtr/index.js';
import { declaresTasks, taskFields, type TaskRecord } from '../tasks/task-record.js';
import { isPlainObject } from '../protocol/json-value.js';
import { andThen, type MaybePromise } from '../protocol/maybe-promise.js';
import type { CallToolResult, JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredTool } from '../registry/registered-handlers.js';
import { toCallToolResult, toolErrorResult } from '../results/tool-result.mapper.js';
import { isDeliberateToolError, toolErrorMessage } from '../results/tool-error.js';
import { toDtoInstance, validateDto, type StandardValidator } from '../schema/index.js';
import { isCallToolResultLike } from '../results/content.js';
import { instanceToPlain } from 'class-transformer';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { visibleEntries } from './visible-entries.js';

/** Invalid tool arguments: answered as a tool error, so the model can correct itself (SEP-1303). */
class ToolArgumentsError extends IntrinsicException {}

/** A result that breaks the tool's own output schema: a server fault, logged with a reference like any other. */
class ToolResultError extends Error {}

/** `tools/list` and `tools/call`. @internal */
@Injectable()
export class ToolsMethods {
  private readonly logger = new Logger('McpModule');

  /** tools/call, as the call pipeline runs it. */
  private readonly calls: CallFamily<RegisteredTool> = {
    method: 'tools/call',
    canAsk: true,
    context: ToolCallContext,
    find: (params) => {
      const name = params.name;
      if (typeof name !== 'string') throw new InvalidParamsError('tools/call needs a string "name"');
      const tool = this.registry.getTool(name);
      if (!tool) throw unknownTool(name);
      const args = params.arguments ?? {};
      return {
        kind: McpHandlerKind.TOOL,
        target: name,
        entry: tool,
        arguments: isPlainObject(args) ? args : {},
        listed: { entry: tool, kind: McpHandlerKind.TOOL, unknown: () => unknownTool(name) },
      };
    },
    // The arguments as sent: one that is not an object is refused here, after the guards (and only for a tool the caller may see).
    checkArguments: ({ entry }, params) => {
      const args = params.arguments ?? {};
      if (!isPlainObject(args)) throw new InvalidParamsError('tools/call "arguments" must be an object');
      return checkToolArguments(entry, args);
    },
    toResult: (value, { entry }) => (entry.resultSchema ? checkedToolResult(entry.resultSchema, value) : toCallToolResult(value)),
    // A failing tool is a tool result, so the model sees why. Exception filters ran before, and
    // Nest's own fallback never does, so this is the one place a failure is logged.
    toErrorResult: (error, { target }, call) => {
      if (error instanceof ToolArgumentsError) return toolErrorResult(error.message);
      if (isDeliberateToolError(error)) return toolErrorResult(toolErrorMessage(error));
      return toolErrorResult(reportInternalError(this.logger, `Tool "${target}"`, call.request.id, error));
    },
  };

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

  /** Not async: the plain call's promise is the pipeline's (a refusal thrown here is the call's failure all the same). */
  @RpcMethod('tools/call', { inputRounds: true, era: 'both' })
  call(call: McpCall, params: JsonObject): MaybePromise<Result> {
    // Looked up first: whether the call runs now or as a task depends on the tool.
    return andThen(this.pipeline.find(this.calls, call, params), (found) => this.callFound(call, params, found));
  }

  private callFound(call: McpCall, params: JsonObject, found: Found<RegisteredTool>): MaybePromise<Result> {
    // Only now: a tool hidden from this caller answered as unknown before its headers could tell.
    if (found.entry.headerParams) call.checkParamHeaders?.(params.arguments, found.entry.headerParams);
    const { task, taskStart } = found.entry;
    if (!task || !declaresTasks(call.meta.clientCapabilities)) {
      if (task === 'required') throw new MissingRequiredClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
      return this.pipeline.run(this.calls, call, params, found);
    }
    if (taskStart !== 'explicit') return this.createTask(call, params);
    return this.runUntilTaskStarts(call, params, found);
  }

  /** The synchronous part of an explicit task: ordinary input rounds, until the handler calls ctx.startTask(). */
  private async runUntilTaskStarts(call: McpCall, params: JsonObject, found: Found<RegisteredTool>): Promise<Result> {
    const startTask = (): never => {
      throw new TaskStartSignal();
    };
    try {
      return await this.pipeline.run(this.calls, withStartTask(call, startTask), params, found);
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
   * background, from the stored tools/call; a tool removed meanwhile fails the task as an unknown
   * tool fails a call.
   */
  startTask(record: TaskRecord, httpRequest: unknown): void {
    this.tasks.start(record, httpRequest, (call, rounds) => this.pipeline.call(this.calls, call, call.request.params ?? {}, rounds));
  }
}

/** An unknown tool, and one the caller may not see (`hideWhenDenied`): the same answer. */
function unknownTool(name: string): InvalidParamsError {
  return new InvalidParamsError(`Unknown tool: ${name}`);
}

/** The Standard Schema's own validate (its output is what the method gets); else JSON Schema first, then the DTO's class-validator rules. */
function checkToolArguments(tool: RegisteredTool, args: JsonObject): MaybePromise<CheckedArguments> {
  if (tool.argumentSchema) {
    return andThen(tool.argumentSchema.check(args), (checked) => {
      if (!checked.ok) throw new ToolArgumentsError(checked.message);
      return { arguments: checked.value as JsonObject };
    });
  }
  if (!tool.validator) return { arguments: args };
  const check = tool.validator.validate(args);
  if (!check.ok) throw new ToolArgumentsError(check.message);
  if (!tool.dto) return { arguments: args };
  const at = tool.dtoArgument;
  const dto = toDtoInstance(tool.dto, at === undefined ? args : args[at], at);
  return validateDto(dto, undefined, at).then((problem) => {
    if (problem) throw new ToolArgumentsError(problem);
    return { arguments: args, dto };
  });
}

/**
 * The result of a tool with a Standard Schema output: its structured content checked by the schema
 * and replaced by the schema's output (what the listed output JSON Schema describes). A tool error
 * is sent as it is; a result without structured content, or with content the schema refuses, is a fault.
 */
async function checkedToolResult(schema: StandardValidator, value: unknown): Promise<CallToolResult> {
  if (!isCallToolResultLike(value)) {
    const structured = await checkedStructure(schema, typeof value === 'object' && value !== null ? instanceToPlain(value) : value);
    return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }
  const result = toCallToolResult(value);
  if (result.isError) return result;
  if (!('structuredContent' in result)) throw new ToolResultError('The tool has an output schema but its result has no structuredContent');
  return { ...result, structuredContent: await checkedStructure(schema, result.structuredContent) };
}

async function checkedStructure(schema: StandardValidator, structured: unknown): Promise<unknown> {
  const checked = await schema.validate(structured);
  if (!checked.ok) throw new ToolResultError(checked.message);
  return checked.value;
}
