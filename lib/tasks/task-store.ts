import type { JsonValue } from '../protocol/wire.types.js';
import type { McpRecordLimit, McpRecordScope, McpStore } from '../store/mcp-store.js';
import { isTerminal, type TaskRecord } from './task-record.js';

const keyOf = (taskId: string) => `task:${taskId}`;

/** The limit on the tasks `owner` runs at once (a finished task is released from it). */
const runningLimit = (owner: string, limit: number): McpRecordLimit => ({ id: `running:${owner}`, limit });

/**
 * Task records on the module's McpStore (memory, or Redis shared by every instance). Each record
 * lives until its absolute deadline (`expiresAt`); changes are compare-and-set, retried on conflict.
 */
export class TaskStore {
  constructor(
    private readonly store: McpStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Resolves once the record is readable by `get` on every instance sharing the store. It counts
   * against the store's task budget and `scope`'s limits (the creator's share of stored tasks) and,
   * while it runs, against its owner's `maxRunning`: when any is full the store refuses it
   * (StoreFullError -31503, ClientLimitError -31429).
   */
  async create(record: TaskRecord, scope: McpRecordScope = { kind: 'task' }, maxRunning?: number): Promise<void> {
    const running = record.owner !== undefined && maxRunning !== undefined ? [runningLimit(record.owner, maxRunning)] : [];
    const counted: McpRecordScope = { kind: 'task', limits: [...(scope.limits ?? []), ...running] };
    const created = await this.store.create(keyOf(record.taskId), record as unknown as JsonValue, record.ttlMs, counted);
    // 256 random bits: a collision means something else is wrong.
    if (!created) throw new Error(`Task id ${record.taskId} is already taken`);
  }

  /** The record, or undefined when it is unknown or expired. */
  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = await this.store.get<JsonValue>(keyOf(taskId));
    return record === undefined ? undefined : (record as unknown as TaskRecord);
  }

  /**
   * Applies `change` atomically: read, change, compare-and-set, again on conflict. `change` returns
   * undefined for "nothing to do" (and must be pure: it may run several times). Resolves with the
   * record as it now is and whether this call changed it, or undefined when the task is gone.
   */
  async update(taskId: string, change: (record: TaskRecord, now: number) => TaskRecord | undefined): Promise<{ record: TaskRecord; changed: boolean } | undefined> {
    for (;;) {
      const current = await this.get(taskId);
      if (!current) return undefined;
      const now = this.clock();
      const next = change(current, now);
      if (!next) return { record: current, changed: false };
      const ttlMs = current.expiresAt - now;
      if (ttlMs <= 0) return undefined;
      if (await this.store.compareAndSet(keyOf(taskId), current as unknown as JsonValue, next as unknown as JsonValue, ttlMs)) {
        // A finished task stays readable, but no longer counts as one its owner runs.
        if (next.owner !== undefined && isTerminal(next) && !isTerminal(current)) {
          await this.store.release(keyOf(taskId), { kind: 'task', limits: [runningLimit(next.owner, 0)] });
        }
        return { record: next, changed: true };
      }
    }
  }
}
