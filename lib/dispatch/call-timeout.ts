import { CallTimeoutError } from '../protocol/mcp.error.js';

/**
 * Races a call against `mocapi.limits.call-timeout` (off when `limitMs` is undefined). On timeout
 * the call's signal fires, so cooperative handlers stop, and the call fails with -31008. One promise
 * settled by whichever comes first (no `Promise.race` and its extra promises: this runs for every call).
 */
export function withCallTimeout<T>(limitMs: number | undefined, abort: AbortController, run: () => T | Promise<T>): Promise<T> {
  if (limitMs === undefined) return new Promise<T>((resolve) => resolve(run()));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new CallTimeoutError(limitMs);
      abort.abort(error);
      reject(error);
    }, limitMs);
    Promise.resolve()
      .then(run)
      .then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
  });
}
