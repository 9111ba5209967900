import { isPlainObject } from '../protocol/json-value.js';
import { TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import type { ClientCapabilities, InputRequests, InputResponses, JsonObject, JsonRpcErrorObject, RequestId, Result } from '../protocol/wire.types.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** An in-task question the client answered: what the handler gets back when it asks it again on a replay. */
export interface AnsweredTaskRound {
  fingerprint: string;
  /** By the handler's own keys. */
  responses: InputResponses;
}

/** The question a task waits on (status `input_required`). */
export interface PendingTaskRound {
  fingerprint: string;
  /** By task-unique keys, as `tasks/get` shows them. */
  inputRequests: InputRequests;
  /** Task key → the handler's key. */
  keys: Record<string, string>;
  /** Answers received so far (a client may answer part of a round), by task key. */
  answers: InputResponses;
}

/**
 * A task as the store holds it: what `tasks/get` shows, plus what any instance needs to answer for
 * it, resume it after `tasks/update`, or declare it dead. Transitions below are pure; once terminal
 * a record never changes.
 */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** Epoch ms when the record is deleted (creation + ttlMs, an absolute deadline). */
  expiresAt: number;
  /** Epoch ms until which the instance running the handler vouches for it (status `working` only). */
  leaseExpiresAt: number;
  /** Who created it (token subject or client id); other callers are told the task does not exist. */
  principal?: string;
  /** Whose share it counts in (the principal, else the client's address); absent over stdio. */
  owner?: string;
  /** The `tools/call` that created it: `name`, `arguments`, `_meta` (capabilities included), to replay it. */
  call: { requestId: RequestId; params: JsonObject };
  rounds: AnsweredTaskRound[];
  pending?: PendingTaskRound;
  result?: Result;
  error?: JsonRpcErrorObject;
}

/** True when this request's capabilities declare the tasks extension (the key present, its value an object). */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  return isPlainObject(capabilities.extensions) && isPlainObject(capabilities.extensions[TASKS_EXTENSION]);
}

export function isTerminal(record: TaskRecord): boolean {
  return TERMINAL.has(record.status);
}

/** The wire `Task` fields (CreateTaskResult and every DetailedTask share them). */
export function taskFields(record: TaskRecord): JsonObject {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The DetailedTask of `tasks/get`: outstanding questions, the result or the error by status. */
export function detailedTask(record: TaskRecord): JsonObject {
  const fields = taskFields(record);
  if (record.status === 'input_required' && record.pending) {
    const outstanding = Object.fromEntries(Object.entries(record.pending.inputRequests).filter(([key]) => !(key in record.pending!.answers)));
    return { ...fields, inputRequests: outstanding as JsonObject };
  }
  if (record.status === 'completed' && record.result) return { ...fields, result: record.result as JsonObject };
  if (record.status === 'failed' && record.error) return { ...fields, error: record.error as unknown as JsonObject };
  return fields;
}

/** A record changed at `now`: status transitions go through here so `lastUpdatedAt` moves with them. */
function touched(record: TaskRecord, now: number, change: Partial<TaskRecord>): TaskRecord {
  return { ...record, ...change, lastUpdatedAt: new Date(now).toISOString() };
}

/**
 * The handler settled: a result (tool errors included) completes the task, keeping the last progress
 * it reported as its message (a poller that missed the last step still reads it); a JSON-RPC error
 * fails it, with the error's message.
 */
export function finished(record: TaskRecord, now: number, outcome: { result: Result } | { error: JsonRpcErrorObject }): TaskRecord | undefined {
  if (isTerminal(record)) return undefined; // cancelled meanwhile (or declared dead): late output is dropped
  if ('result' in outcome) return touched(record, now, { status: 'completed', result: outcome.result, pending: undefined });
  return touched(record, now, { status: 'failed', error: outcome.error, statusMessage: outcome.error.message, pending: undefined });
}

/** The handler asked a question nobody answered yet: the task waits for `tasks/update`. */
export function awaitingInput(record: TaskRecord, now: number, pending: PendingTaskRound): TaskRecord | undefined {
  if (record.status !== 'working') return undefined;
  return touched(record, now, { status: 'input_required', pending });
}

/**
 * Takes the answers to outstanding keys (others are ignored, as the spec asks); when the round is
 * complete the task goes back to `working` with a fresh lease, and the caller that wrote this
 * transition (the compare-and-set winner) runs the handler again.
 */
export function answered(
  record: TaskRecord,
  now: number,
  responses: InputResponses,
  accepts: (request: InputRequests[string], response: unknown) => boolean,
  leaseMs: number,
): TaskRecord | undefined {
  const pending = record.pending;
  if (record.status !== 'input_required' || !pending) return undefined;
  const fresh = Object.entries(responses).filter(
    ([key, response]) => key in pending.inputRequests && !(key in pending.answers) && accepts(pending.inputRequests[key], response),
  );
  if (fresh.length === 0) return undefined;
  const answers = { ...pending.answers, ...Object.fromEntries(fresh) };
  if (Object.keys(answers).length < Object.keys(pending.inputRequests).length) {
    return touched(record, now, { pending: { ...pending, answers } });
  }
  const byHandlerKey = Object.fromEntries(Object.entries(answers).map(([key, response]) => [pending.keys[key], response]));
  return touched(record, now, {
    status: 'working',
    pending: undefined,
    rounds: [...record.rounds, { fingerprint: pending.fingerprint, responses: byHandlerKey }],
    leaseExpiresAt: now + leaseMs,
  });
}

export function cancelled(record: TaskRecord, now: number): TaskRecord | undefined {
  if (isTerminal(record)) return undefined;
  return touched(record, now, { status: 'cancelled', statusMessage: 'Cancelled by the client', pending: undefined });
}

/** The running instance is alive: it extends its lease (only while the task is working). */
export function leaseRenewed(record: TaskRecord, now: number, leaseMs: number): TaskRecord | undefined {
  if (record.status !== 'working') return undefined;
  return { ...record, leaseExpiresAt: now + leaseMs };
}

/** Progress inside a task is shown as its statusMessage (notifications/progress has no stream to go to). */
export function withStatusMessage(record: TaskRecord, now: number, statusMessage: string): TaskRecord | undefined {
  if (record.status !== 'working') return undefined;
  return touched(record, now, { statusMessage });
}

export const INSTANCE_LOST = 'The server instance running this task stopped before it finished';

/** A working task whose lease ran out: its instance died, so it fails (it is not re-run). */
export function leaseLost(record: TaskRecord, now: number, lostError: JsonRpcErrorObject): TaskRecord | undefined {
  if (record.status !== 'working' || record.leaseExpiresAt > now) return undefined;
  return finished(record, now, { error: lostError });
}
