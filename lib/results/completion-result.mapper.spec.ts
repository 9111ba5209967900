import { describe, expect, it } from '@jest/globals';
import { assertMatchesDef } from '../../test/support/wire-schema.js';
import { toCompleteResult } from './completion-result.mapper.js';

function mapped(value: unknown) {
  const result = toCompleteResult(value, 'Sources.city()');
  assertMatchesDef(result, 'CompleteResult');
  return result.completion;
}

describe('toCompleteResult', () => {
  it('an array is the values, as strings, with no total or hasMore when they fit', () => {
    expect(mapped(['a', 2, true])).toEqual({ values: ['a', '2', 'true'] });
  });

  it("{ values, total, hasMore } keeps the source's own total and hasMore", () => {
    expect(mapped({ values: ['a'], total: 40, hasMore: true })).toEqual({ values: ['a'], total: 40, hasMore: true });
  });

  it('sends the first 100 values of more, saying how many there were and that there are more', () => {
    const completion = mapped(Array.from({ length: 150 }, (_, index) => `v${index}`));
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('refuses any other shape, naming the source', () => {
    expect(() => toCompleteResult('a', 'Sources.city()')).toThrow('The completion source Sources.city() must return string[] or { values }');
  });
});
