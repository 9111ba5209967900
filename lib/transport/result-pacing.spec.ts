import { describe, expect, it } from '@jest/globals';
import { RESULT_PAUSE_MS, ResultPacing } from './result-pacing.js';

describe('ResultPacing', () => {
  it('a call without notifications writes its result at once', () => {
    const pacing = new ResultPacing();
    expect(pacing.holdsResult(() => undefined)).toBe(false);
  });

  it('a result behind a notification still being written waits until the pause after that write is over', async () => {
    const pacing = new ResultPacing();
    const written = pacing.notificationWrite();
    let writtenAt = 0;
    const released = new Promise<number>((resolve) => expect(pacing.holdsResult(() => resolve(performance.now()))).toBe(true));
    writtenAt = performance.now();
    written();
    expect(await released).toBeGreaterThanOrEqual(writtenAt + RESULT_PAUSE_MS);
  });

  it('a result right after a written notification waits; one that comes after the pause does not', async () => {
    const pacing = new ResultPacing();
    pacing.notificationWrite()();
    await new Promise<void>((resolve) => expect(pacing.holdsResult(resolve)).toBe(true));
    // The release came RESULT_PAUSE_MS after the write: a later result is past the pause.
    expect(pacing.holdsResult(() => undefined)).toBe(false);
  });

  it('a cancelled hold is never released', async () => {
    const pacing = new ResultPacing();
    pacing.notificationWrite()();
    let released = false;
    expect(pacing.holdsResult(() => (released = true))).toBe(true);
    pacing.cancel();
    // A second call's hold, started after the first, is released after the first would have been.
    const later = new ResultPacing();
    later.notificationWrite()();
    await new Promise<void>((resolve) => later.holdsResult(resolve));
    expect(released).toBe(false);
  });
});
