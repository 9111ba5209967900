import { describe, expect, it } from '@jest/globals';
import { isBelowFloor, NODE_FLOOR } from './node-floor.js';

describe('the Node.js floor', () => {
  it('compares major, minor and patch as numbers', () => {
    expect(NODE_FLOOR).toBe('22.12.0');
    expect(isBelowFloor('20.20.2')).toBe(true);
    expect(isBelowFloor('v22.11.9')).toBe(true);
    expect(isBelowFloor('22.12.0')).toBe(false);
    expect(isBelowFloor('22.23.5')).toBe(false);
    expect(isBelowFloor('24.1.0')).toBe(false);
    expect(isBelowFloor('9.99.99', '10.0.0')).toBe(true);
  });

  it('lets the running Node.js through (the tests run on the floor or newer)', () => {
    expect(isBelowFloor(process.versions.node)).toBe(false);
  });
});
