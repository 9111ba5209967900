import { describe, expect, it } from '@jest/globals';
import { assertMatchesDef } from '../../test/support/wire-schema.js';
import { embeddedText, image, resourceLink, text } from './content.js';
import { toGetPromptResult } from './prompt-result.mapper.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function mapped(value: unknown) {
  const result = toGetPromptResult(value);
  assertMatchesDef(result, 'GetPromptResult');
  return result;
}

describe('toGetPromptResult', () => {
  it('a string is one user text message', () => {
    expect(mapped('Hi')).toEqual({ resultType: 'complete', messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] });
  });

  it('a content block is one user message', () => {
    expect(mapped(image(PNG, 'image/png'))).toEqual({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }],
    });
  });

  it('an array mixes strings, blocks and messages, in order', () => {
    const link = resourceLink({ uri: 'docs://a', name: 'a' });
    expect(
      mapped(['one', text('two', { audience: ['assistant'], priority: 0.5 }), { role: 'assistant', content: embeddedText('docs://b', 'B', 'text/plain') }, link]),
    ).toEqual({
      resultType: 'complete',
      messages: [
        { role: 'user', content: { type: 'text', text: 'one' } },
        { role: 'user', content: { type: 'text', text: 'two', annotations: { audience: ['assistant'], priority: 0.5 } } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'docs://b', text: 'B', mimeType: 'text/plain' } } },
        { role: 'user', content: { type: 'resource_link', uri: 'docs://a', name: 'a' } },
      ],
    });
  });

  it('an empty array is no messages', () => {
    expect(mapped([])).toEqual({ resultType: 'complete', messages: [] });
  });

  it('a GetPromptResult keeps its description and _meta; string messages are normalised', () => {
    expect(mapped({ description: 'd', _meta: { 'example.com/k': 1 }, messages: ['x', { role: 'assistant', content: text('y') }] })).toEqual({
      resultType: 'complete',
      description: 'd',
      _meta: { 'example.com/k': 1 },
      messages: [
        { role: 'user', content: { type: 'text', text: 'x' } },
        { role: 'assistant', content: { type: 'text', text: 'y' } },
      ],
    });
  });

  it('overrides a resultType the handler set', () => {
    expect(mapped({ resultType: 'input_required', messages: [] }).resultType).toBe('complete');
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['a plain object', { text: 'no type' }],
    ['a message with a bad role', { role: 'system', content: text('x') }],
    ['a message with an array content', { role: 'user', content: [text('x')] }],
    ['an array holding a number', ['ok', 1]],
  ])('rejects %s with a TypeError', (_label, value) => {
    expect(() => toGetPromptResult(value)).toThrow(
      new TypeError('A prompt must return a string, content blocks, messages ({ role, content }) or a GetPromptResult'),
    );
  });
});
