import { DEFAULT_STORE_MAX_ENTRIES } from '../mcp.constants.js';
import type { JsonValue } from '../protocol/wire.types.js';
import type { McpStore } from './mcp-store.js';

export interface InMemoryMcpStoreOptions {
  /** Most entries held at once (default 100 000); past it, expired entries go first, then the oldest. */
  maxEntries?: number;
  /** Epoch milliseconds; for tests. */
  clock?: () => number;
}

interface Entry {
  /** JSON text, so callers never share (and mutate) a stored object. */
  json: string;
  expiresAt: number;
}

// A full sweep of expired entries costs O(n); when the store is full of live entries, do it at most this often.
const SWEEP_INTERVAL_MS = 1_000;

/**
 * The default store: one process only, so one-time claims hold per instance. Bounded and expiring;
 * instances behind a load balancer need a shared store (RedisMcpStore) instead.
 * @publicApi
 */
export class InMemoryMcpStore implements McpStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly clock: () => number;
  private lastSweep = -Infinity;

  constructor(options: InMemoryMcpStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_STORE_MAX_ENTRIES;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new Error(`InMemoryMcpStore maxEntries must be a positive integer; got ${this.maxEntries}`);
    }
    this.clock = options.clock ?? Date.now;
  }

  /** Entries held, expired ones not yet removed included. */
  get size(): number {
    return this.entries.size;
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, 'true', ttlMs);
    return true;
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const entry = this.live(key);
    return entry ? (JSON.parse(entry.json) as T) : undefined;
  }

  async set(key: string, value: JsonValue, ttlMs: number): Promise<void> {
    this.write(key, JSON.stringify(value), ttlMs);
  }

  async create(key: string, value: JsonValue, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, JSON.stringify(value), ttlMs);
    return true;
  }

  async compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    if (this.live(key)?.json !== JSON.stringify(expected)) return false;
    this.write(key, JSON.stringify(next), ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  /** The unexpired entry under `key`; an expired one is removed on the way. */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, json: string, ttlMs: number): void {
    requirePositiveTtl(ttlMs);
    const now = this.clock();
    // Re-inserting moves the key to the end, so Map order stays oldest-write first.
    this.entries.delete(key);
    this.makeRoom(now);
    this.entries.set(key, { json, expiresAt: now + ttlMs });
  }

  private makeRoom(now: number): void {
    if (this.entries.size < this.maxEntries) return;
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) {
      this.lastSweep = now;
      for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    }
    // Still full of live entries: the oldest write gives way.
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

export function requirePositiveTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error(`A store TTL must be a positive number of milliseconds; got ${ttlMs}`);
}
