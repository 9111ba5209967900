import { describe, expect, it } from '@jest/globals';
import { assertMatchesDef } from '../../test/support/wire-schema.js';
import { toResourceContents } from './resource-result.mapper.js';

function mapped(value: unknown, uri = 'docs://x', mimeType?: string) {
  const contents = toResourceContents(value, uri, mimeType);
  assertMatchesDef({ resultType: 'complete', contents, ttlMs: 0, cacheScope: 'private' }, 'ReadResourceResult');
  return contents;
}

describe('toResourceContents', () => {
  it('text → a text entry with the uri and the declared mimeType', () => {
    expect(mapped('hello', 'docs://x', 'text/plain')).toEqual([{ uri: 'docs://x', mimeType: 'text/plain', text: 'hello' }]);
    expect(mapped('')).toEqual([{ uri: 'docs://x', text: '' }]);
  });

  it('a Buffer → base64 blob', () => {
    expect(mapped(Buffer.from([0, 255, 16]), 'docs://b', 'application/octet-stream')).toEqual([
      { uri: 'docs://b', mimeType: 'application/octet-stream', blob: 'AP8Q' },
    ]);
  });

  it('a Uint8Array view encodes only its own bytes', () => {
    const backing = new Uint8Array([1, 2, 3, 4, 5, 6]);
    expect(mapped(backing.subarray(2, 4))).toEqual([{ uri: 'docs://x', blob: Buffer.from([3, 4]).toString('base64') }]);
    expect(mapped(Buffer.from('hello world').subarray(6))).toEqual([{ uri: 'docs://x', blob: Buffer.from('world').toString('base64') }]);
  });

  it('a contents object keeps its own fields; its uri and mimeType win', () => {
    expect(mapped({ text: '{}', mimeType: 'application/json' }, 'docs://x', 'text/plain')).toEqual([
      { uri: 'docs://x', mimeType: 'application/json', text: '{}' },
    ]);
    expect(mapped({ uri: 'docs://x/child', blob: 'AA==' })).toEqual([{ uri: 'docs://x/child', blob: 'AA==' }]);
  });

  it('an object with contents → its entries', () => {
    expect(mapped({ contents: ['a', { text: 'b' }] })).toEqual([
      { uri: 'docs://x', text: 'a' },
      { uri: 'docs://x', text: 'b' },
    ]);
  });

  it('an array → each item, mixed kinds', () => {
    expect(mapped(['a', Buffer.from('b'), { uri: 'docs://x/c', text: 'c' }], 'docs://x', 'text/plain')).toEqual([
      { uri: 'docs://x', mimeType: 'text/plain', text: 'a' },
      { uri: 'docs://x', mimeType: 'text/plain', blob: 'Yg==' },
      { uri: 'docs://x/c', mimeType: 'text/plain', text: 'c' },
    ]);
  });

  it('an empty array is no contents (the caller answers not found)', () => {
    expect(toResourceContents([], 'docs://x', undefined)).toEqual([]);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 3],
    ['an object without text or blob', { data: 'x' }],
    ['a non-string text', { text: 3 }],
    ['an array holding a number', ['ok', 3]],
  ])('rejects %s with a TypeError', (_label, value) => {
    expect(() => toResourceContents(value, 'docs://x', undefined)).toThrow(
      new TypeError('A resource must return text, a Buffer/Uint8Array, contents objects ({ text } or { blob }) or an array of them'),
    );
  });
});
