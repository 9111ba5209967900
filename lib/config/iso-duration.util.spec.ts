import { describe, expect, it } from '@jest/globals';
import { parseIsoDuration } from './iso-duration.util.js';

describe('parseIsoDuration', () => {
  it.each([
    ['PT5M', 300_000],
    ['PT2M', 120_000],
    ['PT30S', 30_000],
    ['PT0.5S', 500],
    ['PT0,25S', 250],
    ['PT1H', 3_600_000],
    ['P1D', 86_400_000],
    ['P2W', 14 * 86_400_000],
    ['P1DT2H3M4.5S', 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_500],
    ['PT0S', 0],
    ['PT0.0004S', 0],
    ['pt90s', 90_000],
    [' PT5M ', 300_000],
  ])('%j is %d ms', (text, ms) => {
    expect(parseIsoDuration(text)).toBe(ms);
  });

  it.each([
    ['', /"": the value is empty/],
    ['   ', /empty/],
    ['-PT5M', /"-PT5M".*negative/],
    ['P', /"P".*names no amount of time/],
    ['PT', /"PT".*expected a form like PT5M/],
    ['5M', /"5M".*expected a form like/],
    ['PT5', /"PT5".*expected a form like/],
    ['PT5M3H', /"PT5M3H".*expected a form like/],
    ['PT1.5M', /"PT1.5M".*expected a form like/],
    ['P1DT', /"P1DT".*expected a form like/],
    ['five minutes', /"five minutes".*expected a form like/],
    ['P1Y', /"P1Y".*years and months have no fixed length/],
    ['P3M', /"P3M".*years and months have no fixed length/],
    ['P1Y2M3DT4H', /years and months have no fixed length/],
    ['P99999999999999999W', /too large/],
  ])('rejects %j', (text, message) => {
    expect(() => parseIsoDuration(text)).toThrow(message);
  });

  it('does not mistake minutes after T for months', () => {
    expect(parseIsoDuration('PT3M')).toBe(180_000);
  });
});
