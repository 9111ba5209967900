import { Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { TaskRunner } from '../tasks/task-runner.js';
import { MissingRequiredClientCapabilityError } from '../protocol/mcp.error.js';
import { TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { declaresTasks, detailedTask } from '../tasks/task-record.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { ToolsMethods } from './tools.methods.js';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` of the tasks extension. The extension is declared
 * per request, so each is refused (-32021) before any lookup when this request does not declare it.
 * `tasks/result` and `tasks/list` are not served: they are -32601, as the extension requires.
 * @internal
 */
@Injectable()
export class TasksMethods {
  constructor(
    private readonly tasks: TaskRunner,
    private readonly tools: ToolsMethods,
  ) {}

  @RpcMethod('tasks/get')
  async get(call: McpCall, params: JsonObject): Promise<Result> {
    requireTasksExtension(call);
    return { resultType: 'complete', ...detailedTask(await this.tasks.read(call, params.taskId)) };
  }

  /** Acknowledged once the answers are merged, so a tasks/get right after shows what is still outstanding. */
  @RpcMethod('tasks/update')
  async update(call: McpCall, params: JsonObject): Promise<Result> {
    requireTasksExtension(call);
    const { record, resume } = await this.tasks.answer(call, params.taskId, params.inputResponses);
    // Only the update whose write completed the round resumes the handler: duplicates never run it twice.
    if (resume) this.tools.startTask(record, call.httpRequest);
    return { resultType: 'complete' };
  }

  @RpcMethod('tasks/cancel')
  async cancel(call: McpCall, params: JsonObject): Promise<Result> {
    requireTasksExtension(call);
    await this.tasks.cancel(call, params.taskId);
    return { resultType: 'complete' };
  }
}

function requireTasksExtension(call: McpCall): void {
  if (!declaresTasks(call.meta.clientCapabilities)) throw new MissingRequiredClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
}
