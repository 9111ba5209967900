import { CallTimeoutError } from '../protocol/mcp.error.js';

/**
 * Races a call against `mocapi.limits.call-timeout` (off when `limitMs` is undefined). On timeout
 * the call's signal fires, so cooperative handlers stop, and the call fails with -31008.
 */
export async function withCallTimeout<T>(limitMs: number | undefined, abort: AbortController, run: () => T | Promise<T>): Promise<T> {
  if (limitMs === undefined) return run();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new CallTimeoutError(limitMs);
      abort.abort(error);
      reject(error);
    }, limitMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(run), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
