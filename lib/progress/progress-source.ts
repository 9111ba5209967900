import { CountingProgress, DoubleProgress, LongProgress, PercentProgress } from './progress-emitters.js';
import type { ProgressSink, ProgressTracker } from './progress-emitters.js';

/**
 * Hands out typed progress emitters for one request; all of them report through the same sink.
 * @publicApi
 */
export interface ProgressSource {
  /** Advances 1, 2, 3 … on each `emit()`; `total` is a positive whole number. */
  countingProgress(total: number): CountingProgress;
  /** Whole-number running values; `total` null when unknown. */
  longProgress(total: number | null): LongProgress;
  /** Fractional running values; `total` null when unknown. */
  doubleProgress(total: number | null): DoubleProgress;
  /** Fractions in [0, 1] against a total of 1. */
  percentProgress(): PercentProgress;
}

/**
 * Creates a {@link ProgressSource} reporting to `sink`.
 *
 * The increase rule holds across all emitters of the source, since they share one progress token:
 * after a counting emitter sent 3, a percent emitter's `complete(0.5)` throws.
 * @publicApi
 */
export function createProgressSource(sink: ProgressSink): ProgressSource {
  if (typeof sink !== 'function') throw new TypeError('createProgressSource needs a sink function');
  const tracker: ProgressTracker = { last: undefined };
  return {
    countingProgress: (total) => new CountingProgress(sink, total, tracker),
    longProgress: (total) => new LongProgress(sink, total, tracker),
    doubleProgress: (total) => new DoubleProgress(sink, total, tracker),
    percentProgress: () => new PercentProgress(sink, tracker),
  };
}
