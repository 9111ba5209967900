import { describe, expect, it } from '@jest/globals';
import { Exclude } from 'class-transformer';
import { assertMatchesDef } from '../../test/support/wire-schema.js';
import { audio, image, text } from './content.js';
import { toCallToolResult, toolErrorResult } from './tool-result.mapper.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function mapped(value: unknown) {
  const result = toCallToolResult(value);
  assertMatchesDef(result, 'CallToolResult');
  return result;
}

class Account {
  name = 'Ada';
  @Exclude()
  password = 'secret';
}

describe('toCallToolResult', () => {
  it('nothing → empty content', () => {
    expect(mapped(undefined)).toEqual({ resultType: 'complete', content: [] });
    expect(mapped(null)).toEqual({ resultType: 'complete', content: [] });
  });

  it('a string → one text block', () => {
    expect(mapped('done')).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'done' }] });
    expect(mapped('')).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '' }] });
  });

  it('a content block → that block; an array of blocks → those blocks', () => {
    expect(mapped(image(PNG, 'image/png'))).toEqual({ resultType: 'complete', content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] });
    expect(mapped([text('a'), audio('AAAA', 'audio/wav')])).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'a' }, { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
    });
  });

  it('a CallToolResult → as is, with resultType complete', () => {
    expect(mapped({ content: [text('x')], structuredContent: { a: 1 }, isError: false })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { a: 1 },
      isError: false,
    });
    expect(mapped({ content: [], resultType: 'other' }).resultType).toBe('complete');
  });

  it('an object → structuredContent plus the same JSON as text', () => {
    expect(mapped({ sum: 3, items: [1, 2] })).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"sum":3,"items":[1,2]}' }],
      structuredContent: { sum: 3, items: [1, 2] },
    });
  });

  it('honours @Exclude on a returned class instance', () => {
    expect(mapped(new Account())).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"name":"Ada"}' }],
      structuredContent: { name: 'Ada' },
    });
  });

  it('primitives and non-block arrays → JSON', () => {
    expect(mapped(3)).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '3' }], structuredContent: 3 });
    expect(mapped(false)).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'false' }], structuredContent: false });
    expect(mapped([1, 'a'])).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '[1,"a"]' }], structuredContent: [1, 'a'] });
    expect(mapped([])).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '[]' }], structuredContent: [] });
  });

  it('an array mixing blocks and other values is JSON, not content', () => {
    const result = mapped([text('a'), 1]);
    expect(result.structuredContent).toEqual([{ type: 'text', text: 'a' }, 1]);
    expect(result.content).toEqual([{ type: 'text', text: '[{"type":"text","text":"a"},1]' }]);
  });
});

describe('toolErrorResult', () => {
  it('is a text block with isError', () => {
    const result = toolErrorResult('boom');
    assertMatchesDef(result, 'CallToolResult');
    expect(result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'boom' }], isError: true });
  });
});
