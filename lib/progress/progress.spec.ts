import { describe, expect, it } from '@jest/globals';
import { CountingProgress, DoubleProgress, LongProgress, NOOP_PROGRESS_SINK, PercentProgress, createProgressSource } from './index.js';
import type { ProgressSink } from './index.js';

type Call = [number, number | undefined, string | undefined];
function recordingSink(): { sink: ProgressSink; calls: Call[] } {
  const calls: Call[] = [];
  return { sink: (progress, total, message) => void calls.push([progress, total, message]), calls };
}

describe('progress emitters', () => {
  describe('CountingProgress', () => {
    it('advances 1, 2, 3 against its fixed total', () => {
      const { sink, calls } = recordingSink();
      const progress = createProgressSource(sink).countingProgress(3);
      progress.emit('first');
      progress.emit();
      progress.emit('done');
      expect(calls).toEqual([
        [1, 3, 'first'],
        [2, 3, undefined],
        [3, 3, 'done'],
      ]);
      expect(progress.count).toBe(3);
      expect(progress.total).toBe(3);
    });

    it('throws when emitted past its total, and sends nothing for that call', () => {
      const { sink, calls } = recordingSink();
      const progress = new CountingProgress(sink, 1);
      progress.emit();
      expect(() => progress.emit()).toThrow(new RangeError('CountingProgress already reached its total of 1; emit() was called once too often'));
      expect(calls).toHaveLength(1);
    });

    it('requires a positive whole total', () => {
      for (const total of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, null as unknown as number]) {
        expect(() => new CountingProgress(NOOP_PROGRESS_SINK, total)).toThrow(RangeError);
      }
    });

    it('starts at count 0', () => {
      const progress = new CountingProgress(NOOP_PROGRESS_SINK, 2);
      expect(progress.count).toBe(0);
      expect(progress.current).toBeUndefined();
    });
  });

  describe('LongProgress', () => {
    it('sends whole values with the total, or no total when unknown', () => {
      const { sink, calls } = recordingSink();
      const source = createProgressSource(sink);
      source.longProgress(3).emit(2, 'step 2 of 3');
      const unknown = createProgressSource(sink).longProgress(null);
      unknown.emit(0);
      unknown.emit(10, 'ten');
      expect(calls).toEqual([
        [2, 3, 'step 2 of 3'],
        [0, undefined, undefined],
        [10, undefined, 'ten'],
      ]);
      expect(unknown.total).toBeNull();
    });

    it('rejects non-integers, with the value in the message', () => {
      const progress = new LongProgress(NOOP_PROGRESS_SINK, null);
      expect(() => progress.emit(1.5)).toThrow(new RangeError('LongProgress takes whole numbers, got 1.5'));
      expect(() => new LongProgress(NOOP_PROGRESS_SINK, 2.5)).toThrow(RangeError);
    });

    it('rejects values above a known total', () => {
      expect(() => new LongProgress(NOOP_PROGRESS_SINK, 3).emit(4)).toThrow('Progress 4 exceeds the total of 3');
    });
  });

  describe('DoubleProgress', () => {
    it('sends fractional values', () => {
      const { sink, calls } = recordingSink();
      const progress = new DoubleProgress(sink, 1.0);
      progress.emit(0.25);
      progress.emit(0.5, 'halfway');
      expect(calls).toEqual([
        [0.25, 1, undefined],
        [0.5, 1, 'halfway'],
      ]);
      expect(progress.current).toBe(0.5);
    });

    it('accepts an unknown total and rejects a non-positive one', () => {
      const { sink, calls } = recordingSink();
      new DoubleProgress(sink, null).emit(123.4);
      expect(calls).toEqual([[123.4, undefined, undefined]]);
      expect(() => new DoubleProgress(sink, 0)).toThrow(RangeError);
      expect(() => new DoubleProgress(sink, Number.NaN)).toThrow(RangeError);
    });
  });

  describe('PercentProgress', () => {
    it('sends fractions against a total of 1', () => {
      const { sink, calls } = recordingSink();
      const pct = createProgressSource(sink).percentProgress();
      pct.complete(0);
      pct.complete(0.5, 'halfway');
      pct.complete(1.0, 'done');
      expect(calls).toEqual([
        [0, 1, undefined],
        [0.5, 1, 'halfway'],
        [1, 1, 'done'],
      ]);
    });

    it('rejects fractions outside [0, 1]', () => {
      const pct = new PercentProgress(NOOP_PROGRESS_SINK);
      expect(() => pct.complete(1.01)).toThrow(new RangeError('PercentProgress takes a fraction in [0, 1], got 1.01'));
      expect(() => pct.complete(-0.1)).toThrow(RangeError);
      expect(() => pct.complete(50)).toThrow(RangeError);
    });
  });

  describe('shared rules', () => {
    it('throws on a value that does not increase, naming the value and the previous one', () => {
      const { sink, calls } = recordingSink();
      const progress = new DoubleProgress(sink, null);
      progress.emit(2);
      expect(() => progress.emit(2)).toThrow(new RangeError('Progress must increase with each notification: got 2 after 2'));
      expect(() => progress.emit(1)).toThrow('got 1 after 2');
      expect(calls).toEqual([[2, undefined, undefined]]);
      // A rejected value does not move the baseline.
      progress.emit(3);
      expect(progress.current).toBe(3);
    });

    it('throws on non-finite and negative values', () => {
      const progress = new DoubleProgress(NOOP_PROGRESS_SINK, null);
      expect(() => progress.emit(Number.NaN)).toThrow('Progress must be a finite number, got NaN');
      expect(() => progress.emit(Number.POSITIVE_INFINITY)).toThrow(RangeError);
      expect(() => progress.emit('1' as unknown as number)).toThrow(RangeError);
      expect(() => progress.emit(-1)).toThrow('Progress must not be negative, got -1');
      expect(() => new LongProgress(NOOP_PROGRESS_SINK, null).emit(Number.NaN)).toThrow('finite');
    });

    it('validates with a no-op sink too', () => {
      const source = createProgressSource(NOOP_PROGRESS_SINK);
      const progress = source.longProgress(10);
      progress.emit(5);
      expect(() => progress.emit(4)).toThrow(RangeError);
      const counting = source.countingProgress(1);
      expect(() => counting.emit()).toThrow(RangeError); // 1 is not above 5, sent by the other emitter
    });

    it('rejects a non-string message', () => {
      expect(() => new DoubleProgress(NOOP_PROGRESS_SINK, null).emit(1, 42 as unknown as string)).toThrow(TypeError);
    });

    it('keeps values increasing across emitters of one source (one progress token)', () => {
      const { sink, calls } = recordingSink();
      const source = createProgressSource(sink);
      source.countingProgress(3).emit();
      expect(() => source.countingProgress(3).emit()).toThrow(RangeError); // a second counter would send 1 again
      expect(calls).toEqual([[1, 3, undefined]]);
      source.longProgress(null).emit(2);
      expect(() => source.percentProgress().complete(0.5)).toThrow(
        'Progress must increase with each notification of the request: got 0.5 after 2 sent by another emitter',
      );
    });

    it('does not share state between sources or directly constructed emitters', () => {
      const { sink, calls } = recordingSink();
      createProgressSource(sink).longProgress(null).emit(5);
      createProgressSource(sink).longProgress(null).emit(1);
      new LongProgress(sink, null).emit(1);
      expect(calls.map((call) => call[0])).toEqual([5, 1, 1]);
    });

    it('does not resend a value after the sink threw', () => {
      let fail = true;
      const calls: number[] = [];
      const progress = new CountingProgress((value) => {
        calls.push(value);
        if (fail) throw new Error('stream closed');
      }, 3);
      expect(() => progress.emit()).toThrow('stream closed');
      fail = false;
      progress.emit();
      expect(calls).toEqual([1, 2]);
    });

    it('createProgressSource needs a function', () => {
      expect(() => createProgressSource(undefined as unknown as ProgressSink)).toThrow(TypeError);
    });
  });
});
