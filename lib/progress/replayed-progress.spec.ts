import { describe, expect, it } from '@jest/globals';
import { createProgressSource } from './progress-source.js';
import { ReplayedProgressFilter } from './replayed-progress.js';

describe('ReplayedProgressFilter', () => {
  it('drops what an earlier round showed, sends the rest, and keeps the highest value it sent', () => {
    const sent: Array<[number, number | undefined, string | undefined]> = [];
    const filter = new ReplayedProgressFilter((progress, total, message) => void sent.push([progress, total, message]), (progress) => progress <= 2);
    const progress = createProgressSource(filter.sink).longProgress(4);
    progress.emit(1, 'started');
    progress.emit(2, 'named');
    expect(filter.highest).toBeUndefined();
    progress.emit(3, 'chosen');
    progress.emit(4, 'done');
    expect(sent).toEqual([
      [3, 4, 'chosen'],
      [4, 4, 'done'],
    ]);
    expect(filter.highest).toBe(4);
  });

  it('leaves the emitters their rules: a dropped value still counts, so a repeat of it throws', () => {
    const sent: number[] = [];
    const filter = new ReplayedProgressFilter((progress) => void sent.push(progress), (progress) => progress <= 1);
    const counting = createProgressSource(filter.sink).countingProgress(3);
    counting.emit();
    expect(counting.count).toBe(1);
    counting.emit();
    expect(sent).toEqual([2]);
    const source = createProgressSource(filter.sink);
    source.longProgress(null).emit(1);
    expect(() => source.percentProgress().complete(0.5)).toThrow('Progress must increase with each notification of the request: got 0.5 after 1');
  });

  it('keeps a value whose sending threw: it may be on the wire already', () => {
    const filter = new ReplayedProgressFilter(() => {
      throw new Error('stream closed');
    }, () => false);
    expect(() => filter.sink(5, undefined, undefined)).toThrow('stream closed');
    expect(filter.highest).toBe(5);
  });
});
