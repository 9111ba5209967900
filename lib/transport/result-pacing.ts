/**
 * How long a call's result waits behind the call's latest notification, counted from when that
 * notification's write completed.
 *
 * The official TypeScript SDK clients (v1 and 2.x) handle a response as soon as its message is
 * parsed, retiring the call's progress handler, but run notification handlers a microtask later;
 * every message of one read is parsed before any microtask runs. A notification read together with
 * its call's result is therefore handled after the result: "Received a progress notification for an
 * unknown token", which some clients (Claude Code) answer by closing the transport. On stdio that is
 * one read of the pipe; over HTTP the SDK reads the SSE stream well, but a bridge such as
 * `mcp-remote` relays both events to its own stdio client in one write.
 *
 * A writer cannot see when the reader has read (2026-07-28 has no server→client request to ask), so
 * the pause is a time, sized with bench/stdio-progress.mjs on two cores (figures in docs/benchmarks.md):
 * the write callback plus a turn of the event loop is not enough (the client wakes later than the
 * server's next turn), and a shorter pause still loses events when the client waits for a busy core.
 */
export const RESULT_PAUSE_MS = 20;

/**
 * The pacing of one call's messages: its notifications are written as they come, its result at once
 * unless a notification of the call is still being written or was written less than
 * RESULT_PAUSE_MS ago. Calls without notifications, or whose handler worked on after its last one,
 * never wait.
 */
export class ResultPacing {
  /** Notifications handed to the output whose write has not completed yet. */
  private writing = 0;
  /** When (performance.now()) the write of the latest notification completed. */
  private writtenAt: number | undefined;
  private release: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Call as a notification is handed to the output; pass what it returns as that write's callback. */
  notificationWrite(): () => void {
    this.writing++;
    return () => {
      this.writing--;
      this.writtenAt = performance.now();
      if (this.release && this.writing === 0) this.startPause();
    };
  }

  /**
   * Whether the result must wait. When it must, `release` runs once it may be written; otherwise the
   * caller writes it now and `release` never runs.
   */
  holdsResult(release: () => void): boolean {
    const recent = this.writtenAt !== undefined && performance.now() - this.writtenAt < RESULT_PAUSE_MS;
    if (this.writing === 0 && !recent) return false;
    this.release = release;
    // Else the last notification's write callback starts the pause.
    if (this.writing === 0) this.startPause();
    return true;
  }

  /** Drops a held result: its output went away. */
  cancel(): void {
    clearTimeout(this.timer);
    this.release = undefined;
  }

  private startPause(): void {
    const left = RESULT_PAUSE_MS - (performance.now() - this.writtenAt!);
    // Not unref'd: the result must be written before the process may end. Timers run on the event
    // loop's millisecond clock and may fire a little early by performance.now(): then wait the rest.
    this.timer = setTimeout(() => {
      if (performance.now() - this.writtenAt! < RESULT_PAUSE_MS) return this.startPause();
      const release = this.release;
      this.release = undefined;
      release?.();
    }, Math.ceil(left));
  }
}
