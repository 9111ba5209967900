import { DEFAULT_STORE_MAX_ENTRIES } from '../mcp.constants.js';
import type { JsonValue } from '../protocol/wire.types.js';
import type { McpRecordKind, McpRecordLimit, McpRecordScope, McpStore } from './mcp-store.js';
import { ClientLimitError, RECORD_KINDS, RefusalWarnings, requirePositiveTtl, StoreFullError, storeBudgets, unscopedRoom, type McpStoreBudgets } from './store-limits.js';

export interface InMemoryMcpStoreOptions {
  /**
   * Most entries held at once (default 100 000). Live entries are never dropped: when the store, or a
   * kind's budget, is full, new records are refused (`StoreFullError`) until entries expire.
   */
  maxEntries?: number;
  /** Most live records of each kind; by default shares of `maxEntries` (claims 50%, tasks 25%, ended sessions 20%). */
  budgets?: Partial<McpStoreBudgets>;
  /** Epoch milliseconds; for tests. */
  clock?: () => number;
}

/** The records counted against one limit: a kind's budget, or one of a scope's limits on a kind. */
class Group {
  readonly keys = new Set<string>();
  /** When expired keys were last removed, and the earliest expiry then left (for Retry-After). */
  prunedAt = -Infinity;
  nextExpiry = Infinity;

  constructor(
    public limit: number,
    /** Set on a scope limit's group: its key in `limited`, so it is forgotten once empty. */
    readonly limitKey?: string,
  ) {}
}

interface Entry {
  /** JSON text, so callers never share (and mutate) a stored object. */
  json: string;
  expiresAt: number;
  /** The groups the entry counts in: its kind's (or the unscoped one), then its scope's limits'. */
  groups: Group[];
}

// Removing the expired entries of a large group costs O(n): when it is full of live ones, do it at most this often.
const PRUNE_INTERVAL_MS = 1_000;
// Up to this size a group is pruned whenever it is full (a client's share is small).
const ALWAYS_PRUNED = 1_000;

/**
 * The default store: one process only, so one-time claims hold per instance. Bounded and expiring;
 * instances behind a load balancer need a shared store (RedisMcpStore) instead. Each record kind has
 * its own budget, records written without a kind share what the budgets leave of `maxEntries`, and
 * a live entry is never dropped to make room: a full budget (or scope limit) refuses the new record.
 * It remembers since its creation: after a restart, what the previous process sealed is refused.
 * @publicApi
 */
export class InMemoryMcpStore implements McpStore {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: () => number;
  private readonly kinds: Record<McpRecordKind, Group>;
  /** Records written without a kind. */
  private readonly unscoped: Group;
  /** The groups of scope limits that hold records, by kind and id. */
  private readonly limited = new Map<string, Group>();
  private readonly warnings: RefusalWarnings;
  /** A new process starts with nothing: what was sealed before it may have been used or ended. */
  private readonly createdAt: number;

  constructor(options: InMemoryMcpStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_STORE_MAX_ENTRIES;
    const budgets = storeBudgets(maxEntries, options.budgets);
    this.kinds = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, new Group(budgets[kind])])) as Record<McpRecordKind, Group>;
    this.unscoped = new Group(unscopedRoom(maxEntries, budgets));
    this.clock = options.clock ?? Date.now;
    this.warnings = new RefusalWarnings(this.clock);
    this.createdAt = this.clock();
  }

  /** Entries held, expired ones not yet removed included. */
  get size(): number {
    return this.entries.size;
  }

  async claimOnce(key: string, ttlMs: number, scope?: McpRecordScope): Promise<boolean> {
    return this.create(key, true, ttlMs, scope);
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const entry = this.live(key);
    return entry ? (JSON.parse(entry.json) as T) : undefined;
  }

  async set(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<void> {
    requirePositiveTtl(ttlMs);
    const entry = this.live(key);
    if (entry) this.replace(entry, JSON.stringify(value), ttlMs);
    else this.add(key, JSON.stringify(value), ttlMs, scope);
  }

  async create(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    if (this.live(key)) return false;
    this.add(key, JSON.stringify(value), ttlMs, scope);
    return true;
  }

  async compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    const entry = this.live(key);
    if (!entry || entry.json !== JSON.stringify(expected)) return false;
    this.replace(entry, JSON.stringify(next), ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.remove(key);
  }

  async close(): Promise<void> {
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  /** When the store was created: it has held every record written since. */
  remembersSince(): number {
    return this.createdAt;
  }

  /** The unexpired entry under `key`; an expired one is removed on the way. */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock()) {
      this.remove(key);
      return undefined;
    }
    return entry;
  }

  private replace(entry: Entry, json: string, ttlMs: number): void {
    entry.json = json;
    entry.expiresAt = this.clock() + ttlMs;
  }

  /** A new entry, counted in its kind's group and its scope's limits; refused (nothing written) when any is full. */
  private add(key: string, json: string, ttlMs: number, scope: McpRecordScope | undefined): void {
    const now = this.clock();
    const budget = scope ? this.kinds[scope.kind] : this.unscoped;
    if (!this.hasRoom(budget, now)) {
      this.warnings.full(scope?.kind, budget.limit);
      throw new StoreFullError(scope?.kind, waitMs(budget, now, ttlMs));
    }
    const groups = [budget];
    for (const limit of scope?.limits ?? []) {
      const group = this.limitGroup(scope!.kind, limit);
      if (!this.hasRoom(group, now)) {
        this.warnings.clientLimit(scope!.kind, limit.limit);
        throw new ClientLimitError(scope!.kind, limit.limit, waitMs(group, now, ttlMs));
      }
      groups.push(group);
    }
    // (Set again: pruning may have emptied a group, and an empty one is forgotten.)
    for (const group of groups) if (group.limitKey !== undefined) this.limited.set(group.limitKey, group);
    this.entries.set(key, { json, expiresAt: now + ttlMs, groups });
    for (const group of groups) group.keys.add(key);
  }

  async release(key: string, scope: McpRecordScope): Promise<void> {
    const entry = this.live(key);
    if (!entry) return;
    for (const limit of scope.limits ?? []) {
      const group = this.limited.get(limitKey(scope.kind, limit));
      if (!group || !entry.groups.includes(group)) continue;
      entry.groups = entry.groups.filter((counted) => counted !== group);
      this.leave(group, key);
    }
  }

  private hasRoom(group: Group, now: number): boolean {
    if (group.keys.size < group.limit) return true;
    if (group.keys.size <= ALWAYS_PRUNED || now - group.prunedAt >= PRUNE_INTERVAL_MS) this.prune(group, now);
    return group.keys.size < group.limit;
  }

  /** Removes the group's expired entries (from every group they count in) and notes the next expiry. */
  private prune(group: Group, now: number): void {
    group.prunedAt = now;
    group.nextExpiry = Infinity;
    for (const key of [...group.keys]) {
      const expiresAt = this.entries.get(key)?.expiresAt ?? -Infinity;
      if (expiresAt <= now) this.remove(key);
      else group.nextExpiry = Math.min(group.nextExpiry, expiresAt);
    }
  }

  /** The group of a scope limit, kept in `limited` while it holds entries. */
  private limitGroup(kind: McpRecordKind, limit: McpRecordLimit): Group {
    const key = limitKey(kind, limit);
    const group = this.limited.get(key) ?? new Group(limit.limit, key);
    group.limit = limit.limit;
    return group;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const group of entry.groups) this.leave(group, key);
  }

  private leave(group: Group, key: string): void {
    group.keys.delete(key);
    if (group.limitKey !== undefined && group.keys.size === 0) this.limited.delete(group.limitKey);
  }
}

function limitKey(kind: McpRecordKind, limit: McpRecordLimit): string {
  return `${kind}\u0000${limit.id}`;
}

/**
 * How long until the full group has room: until its earliest entry expires (a second when unknown),
 * and never longer than the refused record would have lived (a retry after that is pointless).
 */
function waitMs(group: Group, now: number, ttlMs: number): number {
  const untilRoom = Number.isFinite(group.nextExpiry) ? Math.max(0, group.nextExpiry - now) : 1_000;
  return Math.min(untilRoom, ttlMs);
}
