/** What a rate-limited warning goes to: a Nest `Logger`, or any logger with `warn`. */
export interface WarningSink {
  warn(message: string): unknown;
}

/** At most one warning per topic in this window, unless told otherwise. */
export const WARNING_INTERVAL_MS = 10_000;

/**
 * Warnings about refusals that can repeat on every request (a full store, an unreachable authorization
 * server): at most one line per topic each interval, the ones held back counted into the next line,
 * so a flood of requests cannot flood the log. Topics must be few (a kind, an endpoint), never a
 * client's value.
 * @internal
 */
export class RateLimitedWarnings {
  private readonly topics = new Map<string, { loggedAt: number; heldBack: number }>();

  constructor(
    private readonly logger: WarningSink,
    private readonly clock: () => number = () => performance.now(),
    private readonly intervalMs = WARNING_INTERVAL_MS,
  ) {}

  warn(topic: string, message: string): void {
    const now = this.clock();
    const seen = this.topics.get(topic);
    if (seen && now - seen.loggedAt < this.intervalMs) {
      seen.heldBack++;
      return;
    }
    const heldBack = seen?.heldBack ?? 0;
    this.topics.set(topic, { loggedAt: now, heldBack: 0 });
    this.logger.warn(heldBack > 0 ? `${message} (${heldBack} more refusals since the last warning)` : message);
  }
}
