import { describe, expect, it } from '@jest/globals';
import { RateLimitedWarnings, WARNING_INTERVAL_MS } from './rate-limited-warnings.js';

describe('RateLimitedWarnings', () => {
  it('logs a topic once per interval, and counts what it held back into the next line of that topic', () => {
    const clock = { now: 1_000 };
    const lines: string[] = [];
    const warnings = new RateLimitedWarnings({ warn: (message: string) => lines.push(message) }, () => clock.now);
    warnings.warn('a', 'A is down');
    warnings.warn('a', 'A is down');
    warnings.warn('b', 'B is down');
    warnings.warn('a', 'A is down');
    clock.now += WARNING_INTERVAL_MS - 1;
    warnings.warn('a', 'A is down');
    expect(lines).toEqual(['A is down', 'B is down']);
    clock.now += 1;
    warnings.warn('a', 'A is still down');
    warnings.warn('b', 'B is down');
    expect(lines).toEqual(['A is down', 'B is down', 'A is still down (3 more refusals since the last warning)', 'B is down']);
  });

  it('takes another interval', () => {
    const clock = { now: 0 };
    const lines: string[] = [];
    const warnings = new RateLimitedWarnings({ warn: (message: string) => lines.push(message) }, () => clock.now, 100);
    warnings.warn('t', 'x');
    warnings.warn('t', 'x');
    warnings.warn('t', 'x');
    clock.now = 100;
    warnings.warn('t', 'y');
    expect(lines).toEqual(['x', 'y (2 more refusals since the last warning)']);
  });
});
