import { Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidParamsError, McpArg, McpTool, text, ToolContext, type CallToolResult, type McpToolContext } from 'nest-mcp';

/**
 * The tools of the tasks extension scenarios (`tasks-*`), by the names and arguments the suite
 * uses. Each handler is ordinary tool code; `task` on the decorator is all that makes it a task.
 */
@Injectable()
export class ConformanceTaskTools {
  @McpTool({ name: 'greet', description: 'Greets someone, synchronously (never a task)' })
  greet(@McpArg('name') name: string): string {
    return `Hello, ${name}!`;
  }

  @McpTool({ name: 'slow_compute', description: 'Works for the given number of seconds, as a task when the client supports tasks', task: true })
  async slowCompute(
    @McpArg('seconds') seconds: number,
    @McpArg('label', { required: false }) label: string | undefined,
    @ToolContext() ctx: McpToolContext,
  ): Promise<string> {
    const progress = ctx.countingProgress(Math.max(1, seconds));
    for (let second = 0; second < seconds; second++) {
      await delay(1_000, undefined, { signal: ctx.signal });
      progress.emit(`second ${second + 1}`);
    }
    return `Computed ${label ?? 'result'} in ${seconds}s`;
  }

  @McpTool({ name: 'failing_job', description: 'Fails with a tool error after about a second; only as a task', task: 'required' })
  async failingJob(@ToolContext() ctx: McpToolContext): Promise<CallToolResult> {
    await delay(1_000, undefined, { signal: ctx.signal });
    return { resultType: 'complete', isError: true, content: [text('The job failed, as this fixture always does')] };
  }

  @McpTool({ name: 'protocol_error_job', description: 'Fails with a JSON-RPC error, so the task ends failed', task: true })
  protocolErrorJob(): never {
    throw new InvalidParamsError('protocol_error_job always fails with a JSON-RPC error');
  }

  @McpTool({ name: 'confirm_delete', description: 'Asks for a confirmation inside the task, then deletes (pretends to)', task: true })
  async confirmDelete(@McpArg('filename') filename: string, @ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit(`Delete ${filename}?`, (schema) => schema.bool('confirm', 'Delete the file'));
    return answer.isAccepted() && answer.getBool('confirm') ? `Deleted ${filename}` : `Kept ${filename}`;
  }

  @McpTool({ name: 'multi_input', description: 'Asks two questions at once inside the task', task: true })
  async multiInput(@ToolContext() ctx: McpToolContext): Promise<string> {
    const form = {
      type: 'object' as const,
      properties: { name: { type: 'string' as const }, confirm: { type: 'boolean' as const } },
    };
    const answers = await ctx.requestInputs({
      name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: form } },
      confirmation: { method: 'elicitation/create', params: { mode: 'form', message: 'Confirm?', requestedSchema: form } },
    });
    return `Answered: ${Object.keys(answers).join(', ')}`;
  }

  @McpTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name within the call (input_required), then continues as a task',
    task: 'required',
    taskStart: 'explicit',
  })
  async toolWithTask(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit('What is your name?', (schema) => schema.string('name', 'Your name'));
    await ctx.startTask();
    return `Hello from the task, ${answer.getString('name', 'stranger')}!`;
  }
}
