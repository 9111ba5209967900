import { isPlainObject } from '../protocol/json-value.js';
import type { CompleteResult } from '../protocol/wire.types.js';

const MAX_VALUES = 100;

/**
 * Turns what a completion source returned (`string[]`, or `{ values, total?, hasMore? }`) into a
 * `CompleteResult`: at most 100 values; when there were more, `total` and `hasMore` say so.
 * `source` names the method in the error a wrong shape gets.
 */
export function toCompleteResult(produced: unknown, source?: string): CompleteResult {
  let values: string[];
  let total: number | undefined;
  let hasMore: boolean | undefined;
  if (Array.isArray(produced)) {
    values = produced.map(String);
  } else if (isPlainObject(produced) && Array.isArray(produced.values)) {
    values = produced.values.map(String);
    total = typeof produced.total === 'number' ? produced.total : undefined;
    hasMore = typeof produced.hasMore === 'boolean' ? produced.hasMore : undefined;
  } else {
    throw new TypeError(`The completion source ${source} must return string[] or { values }`);
  }
  const cut = values.length > MAX_VALUES;
  return {
    resultType: 'complete',
    completion: {
      values: values.slice(0, MAX_VALUES),
      ...(total !== undefined || cut ? { total: total ?? values.length } : {}),
      ...(hasMore !== undefined || cut ? { hasMore: hasMore ?? true } : {}),
    },
  };
}
