import type { Result } from '../protocol/wire.types.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';

const PREFIX = 'o:';

/** Opaque, stable cursors: the offset into the (deterministically ordered) list. */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
  const offset = cursor === undefined || cursor === null ? 0 : decodeCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < items.length ? { page, nextCursor: Buffer.from(PREFIX + next).toString('base64url') } : { page };
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor === 'string') {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const offset = Number(text.slice(PREFIX.length));
    if (text.startsWith(PREFIX) && Number.isSafeInteger(offset) && offset >= 0 && Buffer.from(text).toString('base64url') === cursor) {
      return offset;
    }
  }
  throw new InvalidParamsError('Invalid cursor: pass a nextCursor value from an earlier page, or omit it');
}

/** A list result (SEP-2549 caching hints included) holding one page of `items` under `key`. */
export function listResult<T>(
  key: string,
  items: readonly T[],
  cursor: unknown,
  settings: { pageSize: number; cache: { ttlMs: number; cacheScope: 'public' | 'private' } },
): Result {
  const { page, nextCursor } = paginate(items, cursor, settings.pageSize);
  return {
    resultType: 'complete',
    [key]: page,
    ...(nextCursor ? { nextCursor } : {}),
    ttlMs: settings.cache.ttlMs,
    cacheScope: settings.cache.cacheScope,
  };
}
