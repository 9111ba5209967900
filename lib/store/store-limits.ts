import { Logger } from '@nestjs/common';
import { DEFAULT_STORE_MAX_ENTRIES, DEFAULT_STORE_SHARES, defaultStoreBudget } from '../mcp.constants.js';
import { McpError } from '../protocol/mcp.error.js';
import { RateLimitedWarnings } from '../protocol/rate-limited-warnings.js';
import type { McpRecordKind } from './mcp-store.js';

/** The most live records of each kind a store keeps. @publicApi */
export type McpStoreBudgets = Record<McpRecordKind, number>;

export const RECORD_KINDS = Object.keys(DEFAULT_STORE_SHARES) as McpRecordKind[];

/** Each kind's budget: the explicit ones, else its share of `maxEntries` (at least 1). @internal */
export function storeBudgets(maxEntries = DEFAULT_STORE_MAX_ENTRIES, explicit: Partial<McpStoreBudgets> = {}): McpStoreBudgets {
  requireCount('maxEntries', maxEntries);
  const budgets = {} as McpStoreBudgets;
  for (const kind of RECORD_KINDS) {
    budgets[kind] = explicit[kind] ?? defaultStoreBudget(maxEntries, kind);
    requireCount(`${kind} budget`, budgets[kind]);
  }
  return budgets;
}

/** What records without a kind may hold: the part of `maxEntries` the kinds' budgets leave. @internal */
export function unscopedRoom(maxEntries: number, budgets: McpStoreBudgets): number {
  const reserved = RECORD_KINDS.reduce((sum, kind) => sum + budgets[kind], 0);
  if (reserved > maxEntries) throw new Error(`A store's budgets (${reserved} records in all) must fit in its maxEntries (${maxEntries})`);
  return maxEntries - reserved;
}

export function requirePositiveTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error(`A store TTL must be a positive number of milliseconds; got ${ttlMs}`);
}

function requireCount(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`A store's ${what} must be a positive integer; got ${value}`);
}

/**
 * nest-mcp's codes for a store that cannot take a new record. Like `McpServerErrorCode` they read as
 * the HTTP status they are answered with: -31503 is 503 (shared with shutdown: the server cannot take
 * this work now, retry), -31429 is 429 (this client holds its share).
 * @publicApi
 */
export const McpStoreErrorCode = {
  StoreFull: -31503,
  ClientLimit: -31429,
} as const;

const LABELS: Record<McpRecordKind, string> = { claim: 'requestState claims', task: 'tasks', 'session-end': 'ended sessions' };

/**
 * The `Retry-After` header of an HTTP answer carrying a store's refusal (503 or 429, the JSON-RPC
 * error's `data.retryAfterMs`), in whole seconds, at least 1; none for any other answer.
 * @internal
 */
export function retryAfterHeader(status: number, body: unknown): { 'Retry-After'?: string } {
  if (status !== 503 && status !== 429) return {};
  const ms = (body as { error?: { data?: { retryAfterMs?: unknown } } } | undefined)?.error?.data?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) ? { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) } : {};
}

/**
 * A bounded store is full (its kind's budget, or Redis out of memory): the new record was not
 * written, nothing else changed. HTTP 503 with `Retry-After`; `data.retryAfterMs` says when a record
 * of the kind expires, never later than the refused record would have lived (a 2025 session or stdio
 * has no header).
 * @publicApi
 */
export class StoreFullError extends McpError {
  constructor(
    readonly kind: McpRecordKind | undefined,
    readonly retryAfterMs: number,
  ) {
    const what = kind ? ` (${LABELS[kind]})` : '';
    const hint = kind === 'claim' ? ' with the same requestState' : kind === 'session-end' ? ': the session is not ended yet' : '';
    super(McpStoreErrorCode.StoreFull, `Service Unavailable: the server's store is full${what}; retry later${hint}`, { retryAfterMs }, 503);
  }
}

/**
 * The store cannot be reached (Redis down, or not answering within 2 s): the call is refused at once
 * rather than left waiting, -31503 with HTTP 503 and `Retry-After`. The connection reconnects by
 * itself; calls that need no store keep working meanwhile.
 * @publicApi
 */
export class StoreUnavailableError extends McpError {
  constructor(readonly retryAfterMs = 1_000) {
    super(McpStoreErrorCode.StoreFull, "Service Unavailable: the server's store (Redis) is unreachable; retry later", { retryAfterMs }, 503);
  }
}

/**
 * A client holds its share of a kind's live records (its fair share of the budget, or for tasks
 * `mocapi.tasks.max-per-client` running ones). HTTP 429 with `Retry-After`: when its oldest record
 * expires, never later than the refused record would have lived.
 * @publicApi
 */
export class ClientLimitError extends McpError {
  constructor(
    readonly kind: McpRecordKind,
    readonly limit: number,
    readonly retryAfterMs: number,
  ) {
    super(
      McpStoreErrorCode.ClientLimit,
      `Too Many Requests: this client holds ${limit} live ${LABELS[kind]}, its share; retry when one expires`,
      { limit, retryAfterMs },
      429,
    );
  }
}

/**
 * The warnings of a store that refuses records, rate-limited: a flood of refusals logs one line per
 * topic (a kind, a client share) every 10 s at most, with the count of those not logged. Never names
 * the client (its id may come from a header or a token).
 * @internal
 */
export class RefusalWarnings {
  private readonly warnings: RateLimitedWarnings;

  constructor(clock: () => number, logger: Pick<Logger, 'warn'> = new Logger('McpStore')) {
    this.warnings = new RateLimitedWarnings(logger, clock);
  }

  /** A kind's budget is full. */
  full(kind: McpRecordKind | undefined, limit: number): void {
    const what = kind ? `${LABELS[kind]} (${limit}, ${SETTING[kind]})` : `entries (${limit}, mocapi.store.max-entries)`;
    this.warnings.warn(`full:${kind ?? ''}`, `The MCP store is full of live ${what}: new work that needs one is refused with -31503 (HTTP 503, Retry-After) until they expire`);
  }

  /** A client reached its share. */
  clientLimit(kind: McpRecordKind, limit: number): void {
    this.warnings.warn(`client:${kind}`, `A client holds ${limit} live ${LABELS[kind]}, its share: its new ones are refused with -31429 (HTTP 429, Retry-After) until one expires; other clients are not affected`);
  }

  /** The backend refused a write for lack of memory (Redis: OOM). */
  outOfMemory(detail: string): void {
    this.warnings.warn('oom', `Redis refused a write for lack of memory (${detail}): new work that needs a record is refused with -31503 (HTTP 503, Retry-After) until it has room`);
  }
}

const SETTING: Record<McpRecordKind, string> = {
  claim: 'mocapi.store.max-claims',
  task: 'mocapi.store.max-tasks',
  'session-end': 'mocapi.store.max-session-ends',
};
