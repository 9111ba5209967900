/**
 * A step's value when it had nothing to wait for, else the promise of it. The plain call's steps
 * (argument checks, the direct method call, lookup) return values, so a call awaits only what waits:
 * every awaited step costs a promise, a microtask turn and their garbage.
 */
export type MaybePromise<T> = T | Promise<T>;

/** True for a promise or any thenable (a method's own value may come from another promise library). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `next` applied to the value now, or once it is there. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
