import { describe, expect, it } from '@jest/globals';
import { decodeHeaderValue, encodeHeaderValue } from './mcp-headers.js';

describe('encodeHeaderValue', () => {
  it('keeps visible ASCII with inner spaces plain', () => {
    expect(encodeHeaderValue('get-weather')).toBe('get-weather');
    expect(encodeHeaderValue('file:///a b.txt')).toBe('file:///a b.txt');
    expect(encodeHeaderValue('')).toBe('');
  });

  it('sends non-ASCII, control characters and edge spaces in the Base64 form, which decodes back', () => {
    for (const value of ['zürich-1', 'a\u0001b', ' padded', 'trailing ', '日本']) {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      expect(decodeHeaderValue('Mcp-Name', encoded)).toBe(value);
    }
    expect(encodeHeaderValue('zürich-1')).toBe('=?base64?esO8cmljaC0x?=');
  });
});
