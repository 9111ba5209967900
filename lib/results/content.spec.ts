import { describe, expect, it } from '@jest/globals';
import { defErrors } from '../../test/support/wire-schema.js';
import { Content, audio, embeddedBlob, embeddedText, image, isCallToolResultLike, isContentBlock, resourceLink, text } from './content.js';


const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_BASE64 = 'iVBORw0KGgo=';

describe('content helpers', () => {
  it('builds a text block, with annotations only when given', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
    expect('annotations' in text('hi')).toBe(false);
    expect(text('hi', { audience: ['user'], priority: 0.5, lastModified: '2026-07-28T12:00:00Z' })).toEqual({
      type: 'text',
      text: 'hi',
      annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-07-28T12:00:00Z' },
    });
    expect('annotations' in text('hi', {})).toBe(false);
  });

  it('serializes a Date lastModified and dedupes audience', () => {
    expect(text('x', { lastModified: new Date(Date.UTC(2026, 6, 28)), audience: ['user', 'user', 'assistant'] }).annotations).toEqual({
      lastModified: '2026-07-28T00:00:00.000Z',
      audience: ['user', 'assistant'],
    });
  });

  it('base64-encodes bytes and Buffers, and passes base64 strings through', () => {
    expect(image(PNG_BYTES, 'image/png')).toEqual({ type: 'image', data: PNG_BASE64, mimeType: 'image/png' });
    expect(image(Buffer.from(PNG_BYTES), 'image/png').data).toBe(PNG_BASE64);
    expect(image(PNG_BASE64, 'image/png').data).toBe(PNG_BASE64);
    expect(audio(Uint8Array.from([1, 2, 3]), 'audio/wav', { priority: 1 })).toEqual({
      type: 'audio',
      data: 'AQID',
      mimeType: 'audio/wav',
      annotations: { priority: 1 },
    });
  });

  it('encodes only the viewed bytes of a subarray', () => {
    const whole = Uint8Array.from([0, 1, 2, 3, 0]);
    expect(image(whole.subarray(1, 4), 'image/png').data).toBe('AQID');
  });

  it('rejects non-base64 strings, data: URLs and bad MIME types', () => {
    expect(() => image('not base64!', 'image/png')).toThrow(new TypeError('image data is not valid base64'));
    expect(() => image('data:image/png;base64,iVBORw0KGgo=', 'image/png')).toThrow(/not a data: URL/);
    expect(() => audio('AQID', 'wav')).toThrow(/audio mimeType must be a MIME type/);
    expect(() => image(42 as unknown as string, 'image/png')).toThrow(TypeError);
  });

  it('builds resource links with every optional field', () => {
    const link = resourceLink({
      uri: 'file:///tmp/a.txt',
      name: 'a.txt',
      title: 'A',
      description: 'the file',
      mimeType: 'text/plain; charset=utf-8',
      size: 12,
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
      annotations: { audience: ['assistant'] },
      _meta: { k: 1 },
    });
    expect(link).toEqual({
      type: 'resource_link',
      uri: 'file:///tmp/a.txt',
      name: 'a.txt',
      title: 'A',
      description: 'the file',
      mimeType: 'text/plain; charset=utf-8',
      size: 12,
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
      annotations: { audience: ['assistant'] },
      _meta: { k: 1 },
    });
    expect(resourceLink({ uri: 'https://x.test/r', name: 'r' })).toEqual({ type: 'resource_link', uri: 'https://x.test/r', name: 'r' });
  });

  it('rejects bad resource links', () => {
    expect(() => resourceLink({ uri: 'relative/path', name: 'r' })).toThrow(/absolute URI/);
    expect(() => resourceLink({ uri: 'https://x.test', name: '' })).toThrow(TypeError);
    expect(() => resourceLink({ uri: 'https://x.test', name: 'r', size: -1 })).toThrow(RangeError);
    expect(() => resourceLink({ uri: 'https://x.test', name: 'r', size: 1.5 })).toThrow(RangeError);
    expect(() => resourceLink({ uri: 'https://x.test', name: 'r', icons: [{}] as never })).toThrow(TypeError);
  });

  it('builds embedded text and blob resources', () => {
    expect(embeddedText('file:///a.md', '# A', 'text/markdown', { priority: 0 })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.md', text: '# A', mimeType: 'text/markdown' },
      annotations: { priority: 0 },
    });
    expect(embeddedText('file:///a.md', '')).toEqual({ type: 'resource', resource: { uri: 'file:///a.md', text: '' } });
    expect(embeddedBlob('file:///a.png', PNG_BYTES, 'image/png')).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.png', blob: PNG_BASE64, mimeType: 'image/png' },
    });
    expect(() => embeddedBlob('nope', PNG_BYTES)).toThrow(TypeError);
  });

  it('validates annotations', () => {
    expect(() => text('x', { priority: 1.5 })).toThrow(new RangeError('annotations.priority must be a number in [0, 1], got 1.5'));
    expect(() => text('x', { priority: -0.1 })).toThrow(RangeError);
    expect(() => text('x', { priority: Number.NaN })).toThrow(RangeError);
    expect(() => text('x', { audience: ['system' as 'user'] })).toThrow(/audience entries must be "user" or "assistant", got "system"/);
    expect(() => text('x', { audience: 'user' as never })).toThrow(TypeError);
    expect(() => text('x', { lastModified: 'last tuesday' })).toThrow(/ISO 8601/);
    expect(() => text('x', { lastModified: new Date(Number.NaN) })).toThrow(TypeError);
    expect(() => text('x', null as never)).toThrow(TypeError);
  });

  it('produces blocks that satisfy the spec ContentBlock definition', () => {
    const blocks = [
      text('hi', { audience: ['user', 'assistant'], priority: 0.3, lastModified: new Date(0) }),
      image(PNG_BYTES, 'image/png'),
      audio('AQID', 'audio/wav'),
      resourceLink({ uri: 'https://x.test/r', name: 'r', size: 3, icons: [{ src: 'https://x.test/i.png' }] }),
      embeddedText('file:///a', 'a'),
      embeddedBlob('file:///b', PNG_BYTES, 'image/png'),
    ];
    for (const block of blocks) {
      expect(defErrors(block, 'ContentBlock')).toBeNull();
      expect(isContentBlock(block)).toBe(true);
    }
    // The spec check can fail:
    expect(defErrors({ type: 'text' }, 'ContentBlock')).not.toBeNull();
  });

  it('groups the helpers under Content', () => {
    expect(Content.text('a')).toEqual(text('a'));
    expect(Content.embeddedText).toBe(embeddedText);
    expect(Content.isContentBlock(Content.image(PNG_BYTES, 'image/png'))).toBe(true);
    expect(Object.keys(Content).sort()).toEqual(
      ['audio', 'embeddedBlob', 'embeddedText', 'image', 'isCallToolResultLike', 'isContentBlock', 'resourceLink', 'text'].sort(),
    );
  });
});

describe('isContentBlock', () => {
  it.each([
    ['null', null],
    ['a string', 'text'],
    ['an array', [{ type: 'text', text: 'a' }]],
    ['an unknown type', { type: 'video', data: 'AA==' }],
    ['text without text', { type: 'text' }],
    ['text with a number', { type: 'text', text: 1 }],
    ['image without mimeType', { type: 'image', data: 'AA==' }],
    ['audio with numeric data', { type: 'audio', data: 1, mimeType: 'audio/wav' }],
    ['resource_link without name', { type: 'resource_link', uri: 'https://x.test' }],
    ['resource_link with string size', { type: 'resource_link', uri: 'https://x.test', name: 'n', size: '3' }],
    ['resource_link with bad icons', { type: 'resource_link', uri: 'https://x.test', name: 'n', icons: [{ href: 'x' }] }],
    ['resource without resource', { type: 'resource' }],
    ['resource without text or blob', { type: 'resource', resource: { uri: 'file:///a' } }],
    ['resource with both text and blob', { type: 'resource', resource: { uri: 'file:///a', text: 'a', blob: 'AA==' } }],
    ['resource without uri', { type: 'resource', resource: { text: 'a' } }],
    ['priority out of range', { type: 'text', text: 'a', annotations: { priority: 2 } }],
    ['unknown audience', { type: 'text', text: 'a', annotations: { audience: ['bot'] } }],
    ['non-object annotations', { type: 'text', text: 'a', annotations: 'x' }],
    ['non-object _meta', { type: 'text', text: 'a', _meta: [] }],
  ])('rejects %s', (_label, value) => {
    expect(isContentBlock(value)).toBe(false);
  });

  it('accepts each kind in its minimal wire shape', () => {
    expect(isContentBlock({ type: 'text', text: '' })).toBe(true);
    expect(isContentBlock({ type: 'image', data: '', mimeType: 'image/png' })).toBe(true);
    expect(isContentBlock({ type: 'audio', data: '', mimeType: 'audio/wav' })).toBe(true);
    expect(isContentBlock({ type: 'resource_link', uri: 'u', name: 'n' })).toBe(true);
    expect(isContentBlock({ type: 'resource', resource: { uri: 'u', blob: '' } })).toBe(true);
  });
});

describe('isCallToolResultLike', () => {
  it('accepts objects whose content is an array of blocks', () => {
    expect(isCallToolResultLike({ content: [] })).toBe(true);
    expect(isCallToolResultLike({ content: [text('a'), image(PNG_BYTES, 'image/png')], isError: true, structuredContent: [1] })).toBe(true);
    expect(isCallToolResultLike({ resultType: 'complete', content: [text('a')] })).toBe(true);
  });

  it('rejects everything else', () => {
    expect(isCallToolResultLike(null)).toBe(false);
    expect(isCallToolResultLike([text('a')])).toBe(false);
    expect(isCallToolResultLike({ content: text('a') })).toBe(false);
    expect(isCallToolResultLike({ content: [text('a'), { type: 'text' }] })).toBe(false);
    expect(isCallToolResultLike({ content: [], isError: 'yes' })).toBe(false);
    expect(isCallToolResultLike({ result: 'hello' })).toBe(false);
  });
});
