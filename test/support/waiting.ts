import type { Readable } from 'node:stream';
import type { Json } from './mcp-http.js';

/**
 * Tests wait for events, never for time (issue 25). Every wait has this one ceiling, which only a
 * hang reaches: a busy machine may be slow, never this slow. At the ceiling the wait fails saying
 * what it awaited and what it saw. (jest's testTimeout in package.json is above it, so this message
 * is the one a hanging test reports.)
 */
export const PATIENCE_MS = 30_000;

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Settles with `work`, or fails at the ceiling naming what was `awaited` and what was `seen` by then. */
export async function within<T>(work: Promise<T>, awaited: string, seen: () => unknown = () => 'nothing'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Still waiting for ${awaited} after ${PATIENCE_MS} ms; seen: ${show(seen())}`)), PATIENCE_MS);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Re-checks `check` every 10 ms until it holds: for state that announces no event (in-process, or behind a request). */
export async function until(check: () => boolean | Promise<boolean>, awaited: string, seen: () => unknown = () => 'nothing'): Promise<void> {
  const deadline = performance.now() + PATIENCE_MS;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Still waiting for ${awaited} after ${PATIENCE_MS} ms; seen: ${show(seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * What streams wrote so far, filled by their 'data' events. A wait re-checks on each chunk, fails at
 * once when the streams closed without what it awaits, and at the ceiling otherwise.
 */
abstract class StreamArrivals {
  private readonly waiters = new Set<() => void>();
  private open: number;
  /** Output that breaks the format: every wait fails with it. */
  protected failure?: Error;

  protected constructor(
    readonly label: string,
    streams: Readable[],
  ) {
    this.open = streams.length;
    for (const stream of streams) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        this.take(chunk);
        this.wake();
      });
      stream.on('close', () => {
        this.open--;
        this.wake();
      });
    }
  }

  /** Whether every stream has closed: nothing more can arrive. */
  get closed(): boolean {
    return this.open === 0;
  }

  protected abstract take(chunk: string): void;
  protected abstract seen(): string;

  /** Resolves with the first defined `pick()`, re-evaluated as output arrives. */
  protected awaitPick<T>(pick: () => T | undefined, awaited: string): Promise<T> {
    let check!: () => void;
    const found = new Promise<T>((resolve, reject) => {
      check = () => {
        const value = this.failure ? undefined : pick();
        if (this.failure) reject(this.failure);
        else if (value !== undefined) resolve(value);
        else if (this.closed) reject(new Error(`${this.label} closed before ${awaited}; seen: ${this.seen()}`));
      };
    });
    this.waiters.add(check);
    check();
    return within(found, `${awaited} on ${this.label}`, () => this.seen()).finally(() => this.waiters.delete(check));
  }

  private wake(): void {
    for (const check of [...this.waiters]) check();
  }
}

/** The text of one or more streams (a child's stdout and stderr, say), as one transcript. */
export class StreamText extends StreamArrivals {
  text = '';

  constructor(label: string, ...streams: Readable[]) {
    super(label, streams);
  }

  /** Resolves with the first match of `pattern` in the text, as soon as it is there. */
  contains(pattern: string | RegExp): Promise<RegExpExecArray> {
    const regexp = typeof pattern === 'string' ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : pattern;
    return this.awaitPick(() => regexp.exec(this.text) ?? undefined, typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern));
  }

  protected take(chunk: string): void {
    this.text += chunk;
  }

  protected seen(): string {
    return JSON.stringify(this.text);
  }
}

/** Newline-delimited JSON (the stdio transport's output): every line must parse. */
export class JsonLines extends StreamArrivals {
  readonly lines: string[] = [];
  readonly messages: Json[] = [];
  private buffer = '';

  constructor(label: string, stream: Readable) {
    super(label, [stream]);
  }

  /** Stray bytes after the last newline would be a partial, unparseable message. */
  get trailing(): string {
    return this.buffer;
  }

  /** The first message that matches, as soon as it is there. */
  waitFor(predicate: (message: Json) => boolean, awaited = 'a matching message'): Promise<Json> {
    return this.awaitPick(() => this.messages.find(predicate), awaited);
  }

  /** The response (result or error) to request `id`. */
  response(id: number | string): Promise<Json> {
    return this.waitFor((message) => message.id === id && ('result' in message || 'error' in message), `the response to ${JSON.stringify(id)}`);
  }

  /** Resolves once `count` messages have arrived. */
  count(count: number): Promise<Json[]> {
    return this.awaitPick(() => (this.messages.length >= count ? this.messages : undefined), `${count} message(s)`);
  }

  protected take(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.lines.push(line);
      try {
        this.messages.push(JSON.parse(line) as Json);
      } catch {
        this.failure ??= new Error(`${this.label} wrote a line that is not JSON: ${JSON.stringify(line)}`);
      }
    }
  }

  protected seen(): string {
    return JSON.stringify(this.messages);
  }
}
