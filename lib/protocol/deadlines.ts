/** One pending deadline of a `Deadlines` queue: `clear()` it once what it limits is done. */
export class Deadline {
  constructor(
    readonly at: number,
    readonly expire: () => void,
    private readonly queue: Set<Deadline>,
  ) {}

  clear(): void {
    this.queue.delete(this);
  }
}

/**
 * Deadlines of one duration (the body's time limit, a call's), on one Node timer. Setting and clearing
 * a Timeout for every request costs more than most of a plain call's own steps (docs/benchmarks.md), for a
 * limit that almost never fires. Deadlines of one duration fall due in the order they were set, so an
 * insertion-ordered queue and one timer armed for its head are enough. The timer is unref'd: a pending
 * deadline does not keep the process alive (the request's socket or pipe does).
 */
export class Deadlines {
  private static readonly byDuration = new Map<number, Deadlines>();
  private readonly pending = new Set<Deadline>();
  private timer?: NodeJS.Timeout;

  private constructor(private readonly ms: number) {}

  /** The process's queue for deadlines of `ms` milliseconds. */
  static of(ms: number): Deadlines {
    let queue = Deadlines.byDuration.get(ms);
    if (!queue) Deadlines.byDuration.set(ms, (queue = new Deadlines(ms)));
    return queue;
  }

  /** Calls `expire` once `ms` milliseconds have passed, unless the deadline is cleared first. */
  set(expire: () => void): Deadline {
    const deadline = new Deadline(performance.now() + this.ms, expire, this.pending);
    this.pending.add(deadline);
    this.timer ??= this.arm(this.ms);
    return deadline;
  }

  private arm(delay: number): NodeJS.Timeout {
    return setTimeout(() => this.fire(), delay).unref();
  }

  /** Expires every deadline due (in the order set), then arms the timer for the next one, if any. */
  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    const due: Deadline[] = [];
    for (const deadline of this.pending) {
      if (deadline.at > now) {
        this.timer = this.arm(Math.ceil(deadline.at - now));
        break;
      }
      due.push(deadline);
      this.pending.delete(deadline);
    }
    for (const deadline of due) deadline.expire();
  }
}
