import { isPlainObject } from '../protocol/json-value.js';
import type { ResourceContents } from '../protocol/wire.types.js';

/**
 * Turns what a resource method returned into `contents`: text → a text entry; `Buffer` /
 * `Uint8Array` → a base64 `blob`; a contents object (`text` or `blob`, `uri` optional) → as is;
 * an object with `contents` → its entries; an array → each item.
 */
export function toResourceContents(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (isPlainObject(value) && Array.isArray(value.contents)) return value.contents.map((item) => toEntry(item, uri, mimeType));
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => toEntry(item, uri, mimeType));
}

function toEntry(item: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  const base = { uri, ...(mimeType ? { mimeType } : {}) };
  if (typeof item === 'string') return { ...base, text: item };
  if (item instanceof Uint8Array) return { ...base, blob: Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('base64') };
  if (isPlainObject(item) && (typeof item.text === 'string' || typeof item.blob === 'string')) {
    return { ...base, ...item } as ResourceContents;
  }
  throw new TypeError('A resource must return text, a Buffer/Uint8Array, contents objects ({ text } or { blob }) or an array of them');
}
