import type { MaybePromise } from '../protocol/maybe-promise.js';
import { CallTimeoutError } from '../protocol/mcp.error.js';

/**
 * Races a call against `mocapi.limits.call-timeout` (off when `limitMs` is undefined). On timeout
 * the call's signal fires, so cooperative handlers stop, and the call fails with -31008. One promise
 * settled by whichever comes first (no `Promise.race` and its extra promises: this runs for every call);
 * `run` starts at once, and a value it had without waiting settles the promise as it is.
 */
export function withCallTimeout<T>(limitMs: number | undefined, abort: AbortController, run: () => MaybePromise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer =
      limitMs === undefined
        ? undefined
        : setTimeout(() => {
            const error = new CallTimeoutError(limitMs);
            abort.abort(error);
            reject(error);
          }, limitMs);
    const done = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    const failed = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    let value: MaybePromise<T>;
    try {
      value = run();
    } catch (error) {
      return failed(error);
    }
    if (value instanceof Promise) value.then(done, failed);
    else done(value);
  });
}
