import { describe, expect, it } from '@jest/globals';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { listResult, paginate } from './pagination.js';

const ITEMS = ['a', 'b', 'c', 'd', 'e'];

function walk(items: readonly string[], pageSize: number): { pages: string[][]; cursors: string[] } {
  const pages: string[][] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 20; guard++) {
    const { page, nextCursor } = paginate(items, cursor, pageSize);
    pages.push(page);
    if (nextCursor === undefined) return { pages, cursors };
    cursors.push(nextCursor);
    cursor = nextCursor;
  }
  throw new Error('never ended');
}

describe('paginate', () => {
  it('pages through every item once, in order', () => {
    expect(walk(ITEMS, 2).pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(walk(ITEMS, 5).pages).toEqual([ITEMS]);
    expect(walk(ITEMS, 100).pages).toEqual([ITEMS]);
    expect(walk([], 3).pages).toEqual([[]]);
  });

  it('has no nextCursor on an exactly-full last page', () => {
    expect(walk(['a', 'b', 'c', 'd'], 2).pages).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('issues opaque, stable cursors (the same list gives the same cursors)', () => {
    const first = walk(ITEMS, 2).cursors;
    expect(first).toHaveLength(2);
    expect(walk(ITEMS, 2).cursors).toEqual(first);
    for (const cursor of first) {
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(cursor).not.toBe('2');
    }
    expect(paginate(ITEMS, null, 2).page).toEqual(['a', 'b']);
  });

  it.each([[''], ['garbage'], ['2'], [42], [{}], [Buffer.from('o:-1').toString('base64url')], [Buffer.from('o:1.5').toString('base64url')], [Buffer.from('x:2').toString('base64url')]])(
    'rejects the cursor %j with -32602',
    (cursor) => {
      let failure: unknown;
      try {
        paginate(ITEMS, cursor, 2);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(InvalidParamsError);
      expect((failure as InvalidParamsError).code).toBe(-32602);
      expect((failure as Error).message).toBe('Invalid cursor: pass a nextCursor value from an earlier page, or omit it');
    },
  );

  it('a cursor past the end gives an empty last page', () => {
    const beyond = Buffer.from('o:10').toString('base64url');
    expect(paginate(ITEMS, beyond, 2)).toEqual({ page: [] });
  });
});

describe('listResult', () => {
  const settings = { pageSize: 2, cache: { ttlMs: 500, cacheScope: 'public' as const } };

  it('puts the page under its key with the cache hints on every page', () => {
    const first = listResult('prompts', ITEMS, undefined, settings);
    expect(first).toEqual({ resultType: 'complete', prompts: ['a', 'b'], nextCursor: expect.any(String), ttlMs: 500, cacheScope: 'public' });
    const last = listResult('prompts', ITEMS, listResult('prompts', ITEMS, first.nextCursor, settings).nextCursor, settings);
    expect(last).toEqual({ resultType: 'complete', prompts: ['e'], ttlMs: 500, cacheScope: 'public' });
  });
});
