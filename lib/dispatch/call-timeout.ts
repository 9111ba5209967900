import type { MaybePromise } from '../protocol/maybe-promise.js';
import { Deadlines } from '../protocol/deadlines.js';
import { CallTimeoutError } from '../protocol/mcp.error.js';
import type { Abortable } from './served-call.js';

/**
 * Races a call against `mocapi.limits.call-timeout` (off when `limitMs` is undefined). On timeout
 * the call's signal fires, so cooperative handlers stop, and the call fails with -31008. One promise
 * settled by whichever comes first (no `Promise.race` and its promises, no Timeout of its own: this runs
 * for every call); `run` starts at once, and a value it had without waiting settles the promise as it is.
 */
export function withCallTimeout<T>(limitMs: number | undefined, call: Abortable, run: () => MaybePromise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline =
      limitMs === undefined
        ? undefined
        : Deadlines.of(limitMs).set(() => {
            const error = new CallTimeoutError(limitMs);
            call.abort(error);
            reject(error);
          });
    const done = (value: T) => {
      deadline?.clear();
      resolve(value);
    };
    const failed = (error: unknown) => {
      deadline?.clear();
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
