import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DEFAULT_STORE_KEY_PREFIX, DEFAULT_STORE_MAX_ENTRIES } from '../mcp.constants.js';
import { isMcpError } from '../protocol/mcp.error.js';
import type { MaybePromise } from '../protocol/maybe-promise.js';
import type { JsonValue } from '../protocol/wire.types.js';
import { openRedis } from './redis-connection.js';
import { MARK_SCRIPT, MARKER_KEY, RedisDurability, REPLICA_ACK_TIMEOUT_MS, ReplicaLagError } from './redis-durability.js';
import type { McpRecordKind, McpRecordLimit, McpRecordScope, McpStore } from './mcp-store.js';
import { ClientLimitError, RECORD_KINDS, RefusalWarnings, requirePositiveTtl, StoreFullError, StoreUnavailableError, storeBudgets, unscopedRoom, type McpStoreBudgets } from './store-limits.js';

/** The commands RedisMcpStore sends; an `ioredis` client has them. @publicApi */
export interface RedisCommands {
  get(key: string): Promise<string | null>;
  eval(script: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
  /** Runs a script Redis has cached (optional: without it every script is sent whole with `eval`). */
  evalsha?(sha1: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
  /** `CONFIG GET`, to read `maxmemory-policy` at start-up (optional: without it the policy is reported unchecked). */
  config?(subcommand: 'GET', parameter: string): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  /**
   * `WAIT numreplicas timeout`, so a claim counts only once a replica holds it when Redis has
   * replicas (optional: without it claims are not waited for).
   */
  wait?(numReplicas: number, timeoutMs: number): Promise<number>;
  /**
   * ioredis's connection state and socket, and its 'ready' event on each (re)connect: the store learns
   * on each connection whether Redis may have lost records, and uses nothing learned over an earlier
   * one (optional: a client without them is checked once a second, so a restart may go unnoticed
   * that long). Give such a client `enableOfflineQueue: false` and `autoResendUnfulfilledCommands:
   * false`, as `connect()` does, so no command reaches a Redis it was not meant for.
   */
  readonly status?: string;
  readonly stream?: object;
  on?(event: 'ready', listener: () => void): unknown;
}

export interface RedisMcpStoreOptions {
  /** Put before every key, so several apps can share one Redis (default `nest-mcp:`). */
  keyPrefix?: string;
  /**
   * Most live records (default 100 000), shared by every instance: each kind's budget defaults to its
   * share of it, and records written without a kind share the rest. Redis's own memory is the other
   * bound: with `maxmemory-policy noeviction` a full Redis refuses writes, answered as a full store.
   */
  maxEntries?: number;
  /** Most live records of each kind; by default shares of `maxEntries` (claims 50%, tasks 25%, ended sessions 20%). */
  budgets?: Partial<McpStoreBudgets>;
}

// Compare-and-set in one step on the Redis server: KEYS[1], ARGV = expected JSON, next JSON, TTL in ms.
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/**
 * A new record and its budgets, in one step on the Redis server. Each budget is a sorted set of
 * record keys by expiry (Redis's clock); members whose time has passed are not counted. Budgets are
 * read before anything is written, so the record's SET is the script's first write, and Redis's own
 * out-of-memory check still refuses it (a script that has written is no longer stopped).
 * KEYS[1] the record, KEYS[2] its kind's budget, KEYS[3..] its scope's limits (optional).
 * ARGV: 'nx' (create) or 'set' (replace an existing record), the value, TTL in ms, the kind's
 * limit, then each scope limit's. Returns {1} written, {0} the key exists ('nx'), {-1, ms} the kind's
 * budget is full, {-2, ms, i} the i-th scope limit is (ms: until its earliest live record expires).
 */
const WRITE = `
local exists = redis.call('EXISTS', KEYS[1]) == 1
if exists and ARGV[1] == 'nx' then return {0} end
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[3])
local expiry = string.format('%d', now + ttl)
if exists then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
  for i = 2, #KEYS do redis.call('ZADD', KEYS[i], 'XX', expiry, KEYS[1]) end
  return {1}
end
local after = string.format('(%d', now)
local function wait(budget)
  local first = redis.call('ZRANGEBYSCORE', budget, after, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  return tonumber(first[2]) - now
end
if redis.call('ZCOUNT', KEYS[2], after, '+inf') >= tonumber(ARGV[4]) then return {-1, wait(KEYS[2])} end
local gone = {}
for i = 3, #KEYS do
  local limit = tonumber(ARGV[i + 2])
  if redis.call('ZCOUNT', KEYS[i], after, '+inf') >= limit then
    -- A limit's records may have been deleted: those no longer count.
    local live = redis.call('ZRANGEBYSCORE', KEYS[i], after, '+inf')
    local deleted = 0
    for _, member in ipairs(live) do
      if redis.call('EXISTS', member) == 0 then
        table.insert(gone, {KEYS[i], member})
        deleted = deleted + 1
      end
    end
    if #live - deleted >= limit then return {-2, wait(KEYS[i]), i - 2} end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
for i = 2, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  redis.call('ZADD', KEYS[i], expiry, KEYS[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
for _, pair in ipairs(gone) do redis.call('ZREM', pair[1], pair[2]) end
return {1}`;

const WRITE_SHA = createHash('sha1').update(WRITE).digest('hex');

// A released record leaves the limits named (KEYS), and stays counted in its kind's budget.
const RELEASE = `
for i = 1, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
return 1`;

// A deleted record leaves its kind's budget at once (a scope limit notices when it is next full).
const DELETE = `
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], KEYS[1]) end
return 1`;

/** The budgets of records written with and without a kind. */
type Budget = McpRecordKind | 'unscoped';

/**
 * A store shared by every instance that points at the same Redis: `claimOnce` is `SET key 1 NX PX ttl`,
 * so a requestState used on one instance is refused on all the others; `compareAndSet` is a Lua script.
 * With replicas online a claim is answered once one holds it, and `remembersSince` says when Redis may
 * have lost records (see RedisDurability).
 * @publicApi
 */
export class RedisMcpStore implements McpStore {
  private readonly keyPrefix: string;
  private readonly limits: Record<Budget, number>;
  private readonly warnings = new RefusalWarnings(Date.now);
  /** Where Redis is, for log lines (never the password). */
  private where = 'Redis';
  /** Since when Redis holds every record, and the replicas a claim must reach; see RedisDurability. */
  private readonly durability: RedisDurability;

  /** Wraps a client you manage (e.g. `new Redis(url)` from ioredis); close() quits it. */
  constructor(
    private readonly client: RedisCommands,
    options: RedisMcpStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX;
    const maxEntries = options.maxEntries ?? DEFAULT_STORE_MAX_ENTRIES;
    const budgets = storeBudgets(maxEntries, options.budgets);
    this.limits = { ...budgets, unscoped: unscopedRoom(maxEntries, budgets) };
    this.durability = new RedisDurability(client, () => this.mark(), () => this.where);
  }

  /**
   * Loads ioredis (an optional peer dependency) and connects to `url`; fails at start-up when the
   * package is missing or Redis cannot be reached. While Redis is down later, calls fail fast
   * (no offline queue) and the client keeps reconnecting.
   */
  static async connect(url: string, options: RedisMcpStoreOptions = {}): Promise<RedisMcpStore> {
    const { client, where } = await openRedis(url, 'store');
    const store = new RedisMcpStore(client, options);
    store.where = `Redis at ${where}`;
    // The store starts serving with Redis's marker read (or set): a claim need not wait for it.
    await store.durability.learn().catch(() => undefined);
    return store;
  }

  /**
   * Reads Redis's `maxmemory-policy`. Every record here has a TTL, so any policy but `noeviction`
   * (`volatile-*` included) lets Redis drop live records when it fills: a spent requestState would be
   * accepted again, a live task vanish, an ended session come back. Logs a warning then (and when the
   * policy cannot be read, e.g. `CONFIG` is disabled on managed Redis); with `require`, throws instead,
   * so the application does not start. The module calls it at start-up for the Redis store it uses.
   */
  async checkEvictionPolicy(options: { require?: boolean } = {}): Promise<void> {
    const logger = new Logger('McpStore');
    let policy: string | undefined;
    let unread: string | undefined;
    try {
      if (!this.client.config) unread = 'the client has no CONFIG command';
      else if ((policy = policyOf(await this.client.config('GET', 'maxmemory-policy'))) === undefined) unread = 'an unexpected reply';
    } catch (error) {
      unread = (error as Error).message;
    }
    if (policy === 'noeviction') return;
    const problem =
      policy === undefined
        ? `The maxmemory-policy of ${this.where} could not be checked (${unread}). It must be noeviction`
        : `${this.where} has maxmemory-policy ${policy}. It must be noeviction`;
    const why =
      ': every nest-mcp record has a TTL, so under any other policy (volatile-* included) a full Redis drops live ones, ' +
      'and a spent requestState is accepted again, a live task vanishes, an ended session comes back. ' +
      'With noeviction a full Redis refuses writes and clients get -31503 (retry later). Set it with CONFIG SET maxmemory-policy noeviction (or in redis.conf)';
    if (options.require) throw new Error(`${problem}${why}. (mocapi.store.redis-require-noeviction is on, so the application does not start.)`);
    logger.warn(`${problem}${why}; mocapi.store.redis-require-noeviction=true refuses to start instead of this warning.`);
  }

  async claimOnce(key: string, ttlMs: number, scope?: McpRecordScope): Promise<boolean> {
    const connection = this.durability.connection();
    if (!(await this.write('nx', key, 'true', ttlMs, scope))) return false;
    const replicas = this.durability.replicasFor(connection);
    return replicas === 0 || this.keepClaim(key, connection, replicas);
  }

  /**
   * Since when Redis holds every record written to it: when the store first saw this Redis process
   * (its `run_id`) with the records, by Redis's clock. A restart (even one that reloads a snapshot or
   * an append-only file, which may lack the last writes), a failover to a replica and a Redis that came
   * back empty all move it. Learned again on every reconnect; until then, calls wait for it.
   */
  remembersSince(): MaybePromise<number> {
    return this.durability.remembersSince();
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const json = await this.guarded(undefined, () => this.client.get(this.keyPrefix + key));
    return json === null ? undefined : (JSON.parse(json) as T);
  }

  async set(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<void> {
    await this.write('set', key, JSON.stringify(value), ttlMs, scope);
  }

  async create(key: string, value: JsonValue, ttlMs: number, scope?: McpRecordScope): Promise<boolean> {
    return this.write('nx', key, JSON.stringify(value), ttlMs, scope);
  }

  async compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    const written = await this.guarded(undefined, () =>
      this.client.eval(COMPARE_AND_SET, 1, this.keyPrefix + key, JSON.stringify(expected), JSON.stringify(next), Math.ceil(ttlMs)),
    );
    return written === 1;
  }

  async delete(key: string): Promise<void> {
    const budgets = [...RECORD_KINDS, 'unscoped' as const].map((budget) => this.budgetKey(budget));
    await this.guarded(undefined, () => this.client.eval(DELETE, 1 + budgets.length, this.keyPrefix + key, ...budgets));
  }

  async release(key: string, scope: McpRecordScope): Promise<void> {
    const limits = (scope.limits ?? []).map((limit) => this.limitKey(scope.kind, limit));
    if (limits.length === 0) return;
    await this.guarded(undefined, () => this.client.eval(RELEASE, limits.length, ...limits, this.keyPrefix + key));
  }

  /** One new record (or, with 'set', a replaced one) counted in its budgets; see WRITE. */
  private async write(mode: 'nx' | 'set', key: string, json: string, ttlMs: number, scope: McpRecordScope | undefined): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    const budget: Budget = scope?.kind ?? 'unscoped';
    const limits = scope?.limits ?? [];
    const keys = [this.keyPrefix + key, this.budgetKey(budget), ...limits.map((limit) => this.limitKey(scope!.kind, limit))];
    const args = [mode, json, Math.ceil(ttlMs), this.limits[budget], ...limits.map((limit) => limit.limit)];
    const [outcome, untilRoom = 1_000, index = 0] = (await this.guarded(scope?.kind, () => this.script(WRITE, WRITE_SHA, keys, args))) as [number, number?, number?];
    // Never longer than the refused record would have lived: a retry after that is pointless.
    const waitMs = Math.min(untilRoom, ttlMs);
    if (outcome === -1) {
      this.warnings.full(scope?.kind, this.limits[budget]);
      throw new StoreFullError(scope?.kind, waitMs);
    }
    if (outcome === -2) {
      const limit = limits[index - 1];
      this.warnings.clientLimit(scope!.kind, limit.limit);
      throw new ClientLimitError(scope!.kind, limit.limit, waitMs);
    }
    return outcome === 1;
  }

  /** Runs a script by its SHA1 (Redis caches it after the first `eval`), sending it whole when Redis does not have it. */
  private async script(script: string, sha: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    if (this.client.evalsha) {
      try {
        return await this.client.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!/^NOSCRIPT/.test((error as Error)?.message ?? '')) throw error;
      }
    }
    return this.client.eval(script, keys.length, ...keys, ...args);
  }

  /**
   * A claim just written over `connection`, answered only once a failover cannot lose it: with
   * replicas online (`replicasFor`, as RedisDurability counts them), `WAIT 1` on that connection. An
   * answer that came back over another connection (ioredis reconnected) may come from another Redis:
   * StoreUnavailableError. When no replica acknowledges in time, ReplicaLagError. Either way the round
   * does not run and the claim is taken back, so the client's retry is claimed afresh rather than told
   * the requestState was used.
   */
  private async keepClaim(key: string, connection: object | undefined, replicasFor: MaybePromise<number>): Promise<true> {
    try {
      const replicas = await replicasFor;
      if (replicas === 0 || !this.client.wait) return true;
      if (!connection) throw new StoreUnavailableError();
      const acknowledged = await this.durability.acknowledged(connection, () => this.guarded('claim', () => this.client.wait!(1, REPLICA_ACK_TIMEOUT_MS)));
      if (this.durability.connection() !== connection) throw new StoreUnavailableError();
      if (acknowledged >= 1) return true;
      this.durability.replicaLate();
      throw new ReplicaLagError();
    } catch (error) {
      await this.delete(key).catch(() => undefined);
      throw error;
    }
  }

  /** Reads (or sets) Redis's marker: see MARK_SCRIPT. */
  private mark(): Promise<unknown> {
    return this.guarded(undefined, () => this.script(MARK_SCRIPT.script, MARK_SCRIPT.sha, [this.keyPrefix + MARKER_KEY], []));
  }

  private budgetKey(budget: Budget): string {
    return `${this.keyPrefix}budget:${budget}`;
  }

  /** A scope limit's sorted set: hashed, since its id may come from a token or a header. */
  private limitKey(kind: McpRecordKind, limit: McpRecordLimit): string {
    return `${this.budgetKey(kind)}:limit:${createHash('sha256').update(limit.id).digest('base64url')}`;
  }

  /**
   * One call to Redis. Out of memory (`-OOM command not allowed`, under `noeviction`) is a full store:
   * -31503, not an internal error. A failure that is no reply of Redis's (the connection is down or
   * stopped answering: ioredis fails at once then, or after its 2 s command timeout) is a
   * StoreUnavailableError; the connection has logged the outage once.
   */
  private async guarded<T>(kind: McpRecordKind | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMcpError(error)) throw error;
      if (OOM.test((error as Error)?.message ?? '')) {
        this.warnings.outOfMemory(this.where);
        throw new StoreFullError(kind, 1_000);
      }
      if ((error as Error)?.name !== 'ReplyError') throw new StoreUnavailableError();
      throw error;
    }
  }

  async close(): Promise<void> {
    // QUIT waits for pending replies; while Redis is unreachable it cannot be sent, and the client
    // would go on reconnecting (keeping the process alive), so drop the connection instead.
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** How Redis answers a write it has no memory for (also from inside a script). */
const OOM = /(^|\W)OOM command not allowed/;

/** The policy out of a `CONFIG GET maxmemory-policy` reply: ['maxmemory-policy', 'noeviction'] (RESP2) or a map (RESP3). */
function policyOf(reply: unknown): string | undefined {
  const value = Array.isArray(reply) ? reply[1] : reply && typeof reply === 'object' ? (reply as Record<string, unknown>)['maxmemory-policy'] : undefined;
  return typeof value === 'string' ? value : undefined;
}
