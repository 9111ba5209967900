import type { ProgressSink } from './progress-emitters.js';

/**
 * The progress sink of one run of a handler that may ask the user. Each round of questions replays the
 * handler from the top, and with it the progress reported before its last question: values the client
 * was shown in an earlier round (`shownBefore`) are dropped here, so it sees each step once. The emitters
 * still advance and check every value; only the notification is left out. The highest value sent on is
 * kept, for the next round to be told.
 * @internal
 */
export class ReplayedProgressFilter {
  /** The highest value this run sent on; undefined while it sent none. */
  highest: number | undefined;
  readonly sink: ProgressSink;

  constructor(next: ProgressSink, shownBefore: (progress: number) => boolean) {
    this.sink = (progress, total, message) => {
      if (shownBefore(progress)) return;
      // Kept before sending: a sink that throws may have put the value on the wire already.
      if (this.highest === undefined || progress > this.highest) this.highest = progress;
      next(progress, total, message);
    };
  }
}
