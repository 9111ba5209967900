/**
 * Receives each validated progress update. The framework supplies one that sends `notifications/progress`
 * when the request carried a `progressToken`, or a no-op one when it did not.
 * @publicApi
 */
export type ProgressSink = (progress: number, total: number | undefined, message: string | undefined) => void;

/** A sink that sends nothing; emitters still validate every call, so bugs show up with or without a token. @publicApi */
export const NOOP_PROGRESS_SINK: ProgressSink = () => {};

function checkMessage(message: unknown): asserts message is string | undefined {
  if (message !== undefined && typeof message !== 'string') {
    throw new TypeError(`Progress message must be a string, got ${typeof message}`);
  }
}

/**
 * The last value sent on one request, shared by every emitter of a {@link ProgressSource}: the spec's
 * increase rule is per progress token, not per emitter.
 * @internal
 */
export interface ProgressTracker {
  last: number | undefined;
}

/**
 * Shared rules for every emitter: a finite, non-negative value strictly above the previous one and not
 * above a known total (the spec: progress "MUST increase with each notification").
 */
abstract class ProgressEmitter {
  #last: number | undefined;

  protected constructor(
    private readonly sink: ProgressSink,
    /** `null` when the total is unknown; sent as an absent `total`. */
    readonly total: number | null,
    private readonly tracker: ProgressTracker,
  ) {}

  /** The last value sent, or `undefined` before the first. */
  get current(): number | undefined {
    return this.#last;
  }

  protected send(value: number, message: string | undefined): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new RangeError(`Progress must be a finite number, got ${String(value)}`);
    }
    if (value < 0) throw new RangeError(`Progress must not be negative, got ${value}`);
    if (this.#last !== undefined && value <= this.#last) {
      throw new RangeError(`Progress must increase with each notification: got ${value} after ${this.#last}`);
    }
    const shared = this.tracker.last;
    if (shared !== undefined && value <= shared) {
      throw new RangeError(
        `Progress must increase with each notification of the request: got ${value} after ${shared} sent by another emitter`,
      );
    }
    if (this.total !== null && value > this.total) {
      throw new RangeError(`Progress ${value} exceeds the total of ${this.total}`);
    }
    checkMessage(message);
    // Record before calling the sink: if the sink throws, the value may already be on the wire, so it must not repeat.
    this.#last = value;
    this.tracker.last = value;
    this.sink(value, this.total ?? undefined, message);
  }
}

function checkTotal(total: unknown, wholeOnly: boolean, allowUnknown: boolean): number | null {
  if (total === null && allowUnknown) return null;
  const valid = typeof total === 'number' && Number.isFinite(total) && total > 0 && (!wholeOnly || Number.isSafeInteger(total));
  if (!valid) {
    const kind = wholeOnly ? 'a positive whole number' : 'a positive finite number';
    throw new RangeError(`Progress total must be ${kind}${allowUnknown ? ' or null' : ''}, got ${String(total)}`);
  }
  return total;
}

/**
 * One notification per finished item: `emit()` sends 1, 2, 3 … against the fixed total.
 * Emitting more than `total` times throws a `RangeError`, because progress beyond the total is a bug
 * (usually a wrong count), and clients would show more than 100 %.
 * @publicApi
 */
export class CountingProgress extends ProgressEmitter {
  declare readonly total: number;

  /** @param total how many items will be processed; a positive whole number. */
  constructor(sink: ProgressSink, total: number, tracker: ProgressTracker = { last: undefined }) {
    super(sink, checkTotal(total, true, false), tracker);
  }

  /** How many items have been reported so far. */
  get count(): number {
    return this.current ?? 0;
  }

  /** Reports one more finished item. */
  emit(message?: string): void {
    const next = this.count + 1;
    if (next > this.total) {
      throw new RangeError(`CountingProgress already reached its total of ${this.total}; emit() was called once too often`);
    }
    this.send(next, message);
  }
}

/**
 * Progress as a whole-number running value (e.g. bytes, rows) you track yourself.
 * @publicApi
 */
export class LongProgress extends ProgressEmitter {
  /** @param total a positive whole number, or `null` when unknown. */
  constructor(sink: ProgressSink, total: number | null, tracker: ProgressTracker = { last: undefined }) {
    super(sink, checkTotal(total, true, true), tracker);
  }

  /** Sends `value`; it must be a whole number greater than the previous one. */
  emit(value: number, message?: string): void {
    if (typeof value === 'number' && Number.isFinite(value) && !Number.isSafeInteger(value)) {
      throw new RangeError(`LongProgress takes whole numbers, got ${value}`);
    }
    this.send(value, message);
  }
}

/**
 * Progress as a fractional running value you track yourself.
 * @publicApi
 */
export class DoubleProgress extends ProgressEmitter {
  /** @param total a positive finite number, or `null` when unknown. */
  constructor(sink: ProgressSink, total: number | null, tracker: ProgressTracker = { last: undefined }) {
    super(sink, checkTotal(total, false, true), tracker);
  }

  /** Sends `value`; it must be finite and greater than the previous one. */
  emit(value: number, message?: string): void {
    this.send(value, message);
  }
}

/**
 * Progress as a fraction of the whole, sent against a total of 1.
 * @publicApi
 */
export class PercentProgress extends ProgressEmitter {
  declare readonly total: 1;

  constructor(sink: ProgressSink, tracker: ProgressTracker = { last: undefined }) {
    super(sink, 1, tracker);
  }

  /** Reports `fraction` done, in [0, 1] (`0.5` = halfway, `1` = finished). */
  complete(fraction: number, message?: string): void {
    if (typeof fraction === 'number' && (fraction < 0 || fraction > 1)) {
      throw new RangeError(`PercentProgress takes a fraction in [0, 1], got ${fraction}`);
    }
    this.send(fraction, message);
  }
}
