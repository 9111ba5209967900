import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { principalOf } from '../auth/mcp-auth-info.js';
import { publishIfPossible } from '../bus/bus-call.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS, MCP_STORE } from '../mcp.constants.js';
import { isValidResponse, TaskRounds, type AnsweredRound, type TaskLedgerRound } from '../mrtr/index.js';
import { asMcpError } from '../protocol/internal-error.js';
import { InternalError, InvalidParamsError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import { parseRequestMeta } from '../protocol/request-meta.js';
import type { InputResponses, JsonObject, JsonRpcErrorObject, Result } from '../protocol/wire.types.js';
import type { McpStore } from '../store/mcp-store.js';
import { callStore } from '../store/store-call.js';
import {
  answered,
  awaitingInput,
  cancelled,
  finished,
  INSTANCE_LOST,
  leaseLost,
  leaseRenewed,
  withStatusMessage,
  type TaskRecord,
} from './task-record.js';
import { TaskStore } from './task-store.js';
import type { ProgressSink } from '../progress/index.js';
import { FairShares } from '../store/fair-shares.js';

/** Runs the tool's handler for one run of a task: the result, or an input_required result from TaskRounds. */
export type TaskExecutor = (call: McpCall, rounds: TaskRounds) => Promise<Result>;

const UNKNOWN_TASK = 'Unknown or expired task';
/** The bus topic a cancel served on one instance reaches the instance running the task by. */
const TASK_CANCELS = 'task-cancels';
const CANCELLED_REASON = 'The task was cancelled';
const LOST: JsonRpcErrorObject = new InternalError(INSTANCE_LOST).toJsonRpc();

/**
 * Where task work runs. The instance that accepted the `tools/call` (or the `tasks/update` that
 * answered the last question) runs the handler in the background, outside any HTTP request; the
 * record in the store is the only shared state, so any instance answers tasks/get, update and cancel.
 * While a run lasts, its instance renews a lease on the record every third of `mocapi.tasks.lease`.
 * A cancel served by another instance reaches the run at once over the bus (`McpBus`); should that
 * message be lost (the bus unreachable), the next lease renewal notices the cancelled record.
 * A working task whose lease ran out reads as failed (-32603): its instance died; it is not re-run.
 * @internal
 */
@Injectable()
export class TaskRunner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpModule');
  private readonly tasks: TaskStore;
  /** The runs on this instance, so a cancel served here fires the handler's signal at once. */
  private readonly running = new Map<string, AbortController>();
  /** Set at shutdown: runs stopped then write nothing (the store may be closing), their leases speak for them. */
  private stopped = false;

  constructor(
    @Inject(MCP_STORE) store: McpStore,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    @Inject(MCP_BUS) private readonly bus: McpBus,
    private readonly shares: FairShares,
  ) {
    this.tasks = new TaskStore(store);
  }

  /** Listens for cancels served by other instances. */
  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(TASK_CANCELS, (message) => {
      if (isPlainObject(message) && typeof message.taskId === 'string') this.running.get(message.taskId)?.abort(new Error(CANCELLED_REASON));
    });
  }

  /**
   * Stores a new working task for this `tools/call`; resolves once any instance can read it. Refused
   * (-31503 / -31429, nothing stored, the handler not run) when the store holds all the tasks it may,
   * or this caller holds its share of them or `mocapi.tasks.max-per-client` running ones.
   */
  async create(call: McpCall, params: JsonObject, answered: readonly AnsweredRound[] = []): Promise<TaskRecord> {
    const now = Date.now();
    const { ttlMs, pollIntervalMs, leaseMs } = this.settings.tasks;
    const at = new Date(now).toISOString();
    const principal = principalOf(call.httpRequest);
    const record: TaskRecord = {
      taskId: randomBytes(32).toString('base64url'),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      pollIntervalMs,
      expiresAt: now + ttlMs,
      leaseExpiresAt: now + leaseMs,
      ...(principal !== undefined ? { principal } : {}),
      // Only what a replay needs: the MRTR fields of this request belong to it, not to the task.
      call: { requestId: call.request.id, params: { name: params.name ?? null, arguments: params.arguments ?? {}, _meta: call.meta.raw } },
      // Answers from the call's own input rounds (taskStart 'explicit'): checked there already.
      rounds: answered.map((round): TaskLedgerRound => ({ fingerprint: round.fingerprint, responses: round.responses as InputResponses })),
    };
    const owner = this.shares.owner(call.httpRequest, principal);
    if (owner) record.owner = owner.id;
    const scope = this.shares.scope('task', owner);
    await callStore('create a task', () => this.tasks.create(record, scope, this.settings.tasks.maxPerClient));
    return record;
  }

  /** The caller's task, with a dead instance's task turned failed; -32602 when unknown, expired or someone else's. */
  async read(call: McpCall, taskId: unknown): Promise<TaskRecord> {
    const record = await callStore('read a task', () => this.tasks.get(requireTaskId(taskId)));
    if (!record || record.principal !== principalOf(call.httpRequest)) throw new InvalidParamsError(UNKNOWN_TASK);
    if (record.status !== 'working' || record.leaseExpiresAt > Date.now()) return record;
    return (await this.change(record.taskId, (current, now) => leaseLost(current, now, LOST)))?.record ?? record;
  }

  /** Takes answers for outstanding questions; true when they completed the round and this caller must resume the run. */
  async answer(call: McpCall, taskId: unknown, inputResponses: unknown): Promise<{ record: TaskRecord; resume: boolean }> {
    const record = await this.read(call, taskId);
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
      throw new InvalidParamsError('tasks/update needs an "inputResponses" object');
    }
    const { leaseMs } = this.settings.tasks;
    const outcome = await this.change(record.taskId, (current, now) => answered(current, now, inputResponses as InputResponses, isValidResponse, leaseMs));
    if (!outcome) throw new InvalidParamsError(UNKNOWN_TASK);
    return { record: outcome.record, resume: outcome.changed && outcome.record.status === 'working' };
  }

  /** Cooperative: the record turns cancelled at once, and the handler's signal fires where it runs, on any instance. */
  async cancel(call: McpCall, taskId: unknown): Promise<void> {
    const record = await this.read(call, taskId);
    await this.change(record.taskId, cancelled);
    const here = this.running.get(record.taskId);
    if (here) here.abort(new Error(CANCELLED_REASON));
    else publishIfPossible(this.bus, TASK_CANCELS, { taskId: record.taskId });
  }

  /**
   * Runs the handler once in the background (a first run, or a replay after answers). The run ends
   * with a result, an error, or a question; each is written to the record unless it turned terminal
   * meanwhile (cancelled, or declared dead), in which case the late output is dropped.
   */
  start(record: TaskRecord, httpRequest: unknown, execute: TaskExecutor): void {
    const taskId = record.taskId;
    const abort = new AbortController();
    this.running.get(taskId)?.abort(new Error('A newer run of the task started'));
    this.running.set(taskId, abort);
    const heartbeat = setInterval(() => void this.renewLease(taskId, abort), Math.max(1, Math.floor(this.settings.tasks.leaseMs / 3)));
    heartbeat.unref();
    const meta = parseRequestMeta(record.call.params);
    const rounds = new TaskRounds(record.rounds, meta.clientCapabilities);
    const progress = this.progressWriter(taskId);
    const call: McpCall = {
      request: { jsonrpc: '2.0', id: record.call.requestId, method: 'tools/call', params: record.call.params },
      // The tools/call stream ended with the CreateTaskResult: nothing about the task is sent on it.
      meta: { ...meta, progressToken: undefined },
      signal: abort.signal,
      notify: () => undefined,
      progressSink: progress.sink,
      httpRequest,
    };
    void execute(call, rounds)
      // The outcome is written after the progress reported before it, so the record never steps back.
      .then((result) => progress.written().then(() => result))
      .then((result) =>
        this.stopped
          ? undefined
          : result.resultType === 'input_required' && rounds.question
          ? this.change(taskId, (current, now) => awaitingInput(current, now, { ...rounds.question!, answers: {} }))
          : this.change(taskId, (current, now) => finished(current, now, { result })),
      )
      .catch((error: unknown) => {
        if (this.stopped) return undefined;
        const mcpError = asMcpError(this.logger, `Task ${taskId}`, record.call.requestId, error);
        return this.change(taskId, (current, now) => finished(current, now, { error: mcpError.toJsonRpc() }));
      })
      .catch((error: unknown) => this.logger.error(`Task ${taskId}: could not record its outcome: ${(error as Error).message}`))
      .finally(() => {
        clearInterval(heartbeat);
        if (this.running.get(taskId) === abort) this.running.delete(taskId);
      });
  }

  /** Runs still in flight here stop; their records are left to their leases (they read as failed once those end). */
  onApplicationShutdown(): void {
    this.stopped = true;
    for (const abort of this.running.values()) abort.abort(new Error('The server is shutting down'));
  }

  private async renewLease(taskId: string, abort: AbortController): Promise<void> {
    try {
      const outcome = await this.tasks.update(taskId, (current, now) => leaseRenewed(current, now, this.settings.tasks.leaseMs));
      if (!outcome || outcome.record.status === 'cancelled') abort.abort(new Error(CANCELLED_REASON));
    } catch (error) {
      this.logger.warn(`Task ${taskId}: could not renew its lease: ${(error as Error).message}`);
    }
  }

  /**
   * Progress becomes the task's statusMessage ("2/5: message"), written in order, one write at a time;
   * `written()` resolves once every write asked for so far is done (or failed, and was logged).
   */
  private progressWriter(taskId: string): { sink: ProgressSink; written: () => Promise<void> } {
    let writes = Promise.resolve();
    const sink: ProgressSink = (progress, total, message) => {
      const text = `${progress}${total !== undefined ? `/${total}` : ''}${message !== undefined ? `: ${message}` : ''}`;
      writes = writes
        .then(() => this.tasks.update(taskId, (current, now) => withStatusMessage(current, now, text)))
        .then(
          () => undefined,
          (error: unknown) => this.logger.warn(`Task ${taskId}: could not record progress: ${(error as Error).message}`),
        );
    };
    return { sink, written: () => writes };
  }

  private change(taskId: string, change: Parameters<TaskStore['update']>[1]) {
    return callStore('update a task', () => this.tasks.update(taskId, change));
  }
}

function requireTaskId(taskId: unknown): string {
  if (typeof taskId !== 'string' || taskId === '') throw new InvalidParamsError('A string "taskId" is required');
  return taskId;
}
