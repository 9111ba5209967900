import { describe, expect, it } from '@jest/globals';
import { nestsDeeperThan } from './request-body.js';

describe('nestsDeeperThan', () => {
  it('counts array and object nesting', () => {
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{\\"[[[["}', 1)).toBe(false);
  });

  it('scans 100 000 levels without recursion', () => {
    expect(nestsDeeperThan('['.repeat(100_000) + ']'.repeat(100_000), 64)).toBe(true);
  });
});
