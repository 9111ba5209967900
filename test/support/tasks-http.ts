import { callMcp, type Json, type McpHttpResponse } from './mcp-http.js';
import { until } from './waiting.js';

/** Requests of the tasks extension (SEP-2663) over plain HTTP: the official client does not speak it yet. */
export const TASKS = 'io.modelcontextprotocol/tasks';
export const WITH_TASKS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS]: {} } } };
export const WITHOUT_TASKS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

/** tasks/* with the Mcp-Name header a conforming client sends (the task id). */
export function taskCall(url: string, method: string, params: Record<string, unknown>, meta: Record<string, unknown> = WITH_TASKS): Promise<McpHttpResponse> {
  return callMcp(url, method, params, { meta, headers: { 'mcp-name': String(params.taskId) } });
}

export function createTask(url: string, name: string, args: Record<string, unknown> = {}): Promise<McpHttpResponse> {
  return callMcp(url, 'tools/call', { name, arguments: args }, { meta: WITH_TASKS });
}

/** Polls tasks/get until `check` holds for the task; returns it. A reply without a JSON-RPC body counts as not yet. */
export async function pollTask(url: string, taskId: string, check: (task: Json) => boolean): Promise<Json> {
  let task: Json;
  const reached = async () => {
    const reply = await taskCall(url, 'tasks/get', { taskId });
    // No JSON-RPC body: a proxy's 502 while an instance goes away (nginx does not retry a POST it sent).
    task = reply.body?.result ?? reply.body?.error;
    return task !== undefined && check(task);
  };
  await until(reached, `task ${taskId} to reach the expected state`, () => task);
  return task;
}

