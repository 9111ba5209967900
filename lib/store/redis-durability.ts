import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { MaybePromise } from '../protocol/maybe-promise.js';
import { McpError } from '../protocol/mcp.error.js';
import { RateLimitedWarnings } from '../protocol/rate-limited-warnings.js';
import { McpStoreErrorCode, StoreUnavailableError } from './store-limits.js';

/**
 * The marker of the Redis process that holds the store's records, in one step on the Redis server.
 * KEYS[1] the marker (a hash, no TTL). When it is missing (Redis came back empty, or was flushed) or
 * names another `run_id` (a restart, even one that reloaded a snapshot or an append-only file that
 * lacks the last writes, or a replica that took over), it is set to this run_id and Redis's clock
 * now: records written before that moment may be gone. Returns {that moment in epoch ms, the replicas
 * online, 1 when the run_id could be read (0: INFO refused, so only an empty Redis is noticed)}.
 */
const MARK = `
if redis.replicate_commands then redis.replicate_commands() end
local server = redis.pcall('INFO', 'server')
local run = type(server) == 'string' and string.match(server, 'run_id:(%w+)') or ''
local replication = redis.pcall('INFO', 'replication')
local replicas = 0
if type(replication) == 'string' then
  for _ in string.gmatch(replication, 'state=online') do replicas = replicas + 1 end
end
local marked = redis.call('HMGET', KEYS[1], 'run', 'since')
local since = tonumber(marked[2])
if marked[1] ~= run or not since then
  local time = redis.call('TIME')
  since = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('HSET', KEYS[1], 'run', run, 'since', string.format('%d', since))
end
return {since, replicas, run == '' and 0 or 1}`;

/** The marker script and its SHA1, for RedisMcpStore's script runner. @internal */
export const MARK_SCRIPT = { script: MARK, sha: createHash('sha1').update(MARK).digest('hex') };

/** The marker's key under the store's prefix. @internal */
export const MARKER_KEY = 'remembers-since';

/** What is learned again, on the same connection, at most this often while the store is used: new replicas, a flush. */
const RELEARN_MS = 1_000;
/** How long a claim waits for a replica to acknowledge it (less than a command's timeout, so WAIT answers first). */
export const REPLICA_ACK_TIMEOUT_MS = 1_000;

/** What RedisDurability looks at on the store's client: ioredis's connection state and socket. @internal */
export interface ConnectionView {
  readonly status?: string;
  readonly stream?: object;
  on?(event: 'ready', listener: () => void): unknown;
}

/** What was learned over one connection. */
interface Learned {
  connection: object;
  since: number;
  replicas: number;
  at: number;
}

/**
 * How far the Redis store's records can be trusted, learned per connection: since when Redis holds
 * every record written to it (the marker of MARK), and how many replicas must hold a claim before it
 * counts. Learned again whenever ioredis reconnects ('ready'); until then, what was learned over the
 * previous connection is never used: a command goes out on the connection its facts were learned on.
 * @internal
 */
export class RedisDurability {
  private learned: Learned | undefined;
  private learning: { connection: object; promise: Promise<Learned> } | undefined;
  /** The WAIT about to be sent on a connection: claims answered before it goes out join it. */
  private nextWait: { connection: object; acknowledged: Promise<number> } | undefined;
  private warnedNoInfo = false;
  private readonly logger = new Logger('McpStore');
  private readonly lateReplicas = new RateLimitedWarnings(this.logger);

  constructor(
    private readonly client: ConnectionView,
    /** Runs MARK on the client (errors as the store answers them). */
    private readonly mark: () => Promise<unknown>,
    private readonly where: () => string,
  ) {
    client.on?.('ready', () => void this.learn().catch(() => undefined));
    if (this.connection()) void this.learn().catch(() => undefined);
  }

  /**
   * The connection a command sent now goes out on: ioredis's socket while it is ready, none while it
   * reconnects; a client that does not show its connection (not ioredis) counts as one connection,
   * whose facts are learned again every second.
   */
  connection(): object | undefined {
    const { client } = this;
    if (client.status === undefined) return client;
    return client.status === 'ready' ? client.stream : undefined;
  }

  /** See McpStore.remembersSince: a number when learned over the current connection, else once learned. */
  remembersSince(): MaybePromise<number> {
    const learned = this.current();
    return learned ? learned.since : this.learn().then((fresh) => fresh.since);
  }

  /** How many replicas a claim written over `connection` must reach: StoreUnavailableError when that connection is gone. */
  replicasFor(connection: object | undefined): MaybePromise<number> {
    const learned = this.current();
    if (learned && learned.connection === connection) return learned.replicas;
    return this.learn().then((fresh) => {
      if (fresh.connection !== connection) throw new StoreUnavailableError();
      return fresh.replicas;
    });
  }

  /**
   * How many replicas acknowledged the claims answered over `connection` so far (`wait` sends WAIT).
   * A WAIT covers every write its connection made before it, so the claims answered in one turn of
   * the event loop share one, sent once they all have joined: one WAIT per batch, not per claim.
   */
  acknowledged(connection: object, wait: () => Promise<number>): Promise<number> {
    const next = this.nextWait;
    if (next?.connection === connection) return next.acknowledged;
    const entry = {
      connection,
      acknowledged: new Promise<number>((resolve, reject) =>
        process.nextTick(() => {
          if (this.nextWait === entry) this.nextWait = undefined;
          wait().then(resolve, reject);
        }),
      ),
    };
    this.nextWait = entry;
    return entry.acknowledged;
  }

  /** No replica acknowledged a claim in time: warns (once per 10 s) and counts the replicas again. */
  replicaLate(): void {
    this.lateReplicas.warn(
      'late',
      `No replica of ${this.where()} acknowledged a requestState claim within ${REPLICA_ACK_TIMEOUT_MS} ms: ` +
        'the claim is taken back and the round refused with -31503 (HTTP 503, Retry-After) until a replica keeps up or leaves',
    );
    void this.learn().catch(() => undefined);
  }

  /**
   * Runs MARK over the current connection (one run at a time per connection). Rejects with
   * StoreUnavailableError when there is no connection, or it changed before the answer came back.
   */
  learn(): Promise<Learned> {
    const connection = this.connection();
    if (!connection) return Promise.reject(new StoreUnavailableError());
    if (this.learning?.connection === connection) return this.learning.promise;
    const promise = this.mark().then((reply) => {
      if (this.connection() !== connection) throw new StoreUnavailableError();
      const [since, replicas, runIdRead] = reply as [number, number, number];
      if (runIdRead === 0 && !this.warnedNoInfo) {
        this.warnedNoInfo = true;
        this.logger.warn(`${this.where()} refuses INFO: a restart that reloads part of its data goes unnoticed (one that comes back empty is noticed)`);
      }
      this.learned = { connection, since: Number(since), replicas: Number(replicas), at: Date.now() };
      return this.learned;
    });
    const learning = { connection, promise };
    this.learning = learning;
    const done = () => {
      if (this.learning === learning) this.learning = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  /** What was learned over the current connection, if anything; learned again in the background once a second. */
  private current(): Learned | undefined {
    const learned = this.learned;
    if (!learned || learned.connection !== this.connection()) return undefined;
    const now = Date.now();
    if (now - learned.at >= RELEARN_MS) {
      learned.at = now;
      void this.learn().catch(() => undefined);
    }
    return learned;
  }
}

/**
 * A claim Redis wrote but no replica acknowledged within REPLICA_ACK_TIMEOUT_MS: a failover could
 * lose it, so it was taken back and the round did not run. -31503, HTTP 503, Retry-After: the
 * requestState is unspent and a retry with it is claimed afresh.
 * @internal
 */
export class ReplicaLagError extends McpError {
  constructor(readonly retryAfterMs = 1_000) {
    super(
      McpStoreErrorCode.StoreFull,
      "Service Unavailable: the server's store (Redis) could not copy the claim to a replica in time; retry later with the same requestState",
      { retryAfterMs },
      503,
    );
  }
}
