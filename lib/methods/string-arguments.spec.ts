import { describe, expect, it } from '@jest/globals';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { convertStringArguments } from './string-arguments.js';

const SCHEMAS = {
  ratio: { type: 'number' },
  count: { type: 'integer' },
  loud: { type: 'boolean' },
  tone: { type: 'string', enum: ['friendly', 'formal'] },
  level: { type: 'integer', enum: [1, 2, 3] },
  name: { type: 'string' },
};

function failure(run: () => unknown): InvalidParamsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).code).toBe(-32602);
    return error as InvalidParamsError;
  }
  throw new Error('expected an InvalidParamsError');
}

describe('convertStringArguments', () => {
  it('arguments named like Object.prototype members are unknown arguments, kept as own data', () => {
    const converted = convertStringArguments(JSON.parse('{"count":"3","constructor":5,"__proto__":{"polluted":true}}'), SCHEMAS, new Set(), 'prompts/get');
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(Object.entries(converted)).toEqual([
      ['count', 3],
      ['constructor', 5],
      ['__proto__', { polluted: true }],
    ]);
    expect((converted as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('converts each declared type', () => {
    expect(
      convertStringArguments({ ratio: '2.5', count: '7', loud: 'true', tone: 'formal', level: '2', name: ' spaced ' }, SCHEMAS, new Set(), 'prompts/get'),
    ).toEqual({ ratio: 2.5, count: 7, loud: true, tone: 'formal', level: 2, name: ' spaced ' });
  });

  it('trims numbers and accepts negative and exponent forms', () => {
    expect(convertStringArguments({ ratio: ' -1e3 ', count: '-4' }, SCHEMAS, new Set(), 'x')).toEqual({ ratio: -1000, count: -4 });
    expect(convertStringArguments({ loud: 'false' }, SCHEMAS, new Set(), 'x')).toEqual({ loud: false });
  });

  it('passes already-typed values (template code paths) through the same checks', () => {
    expect(convertStringArguments({ ratio: 3, loud: false }, SCHEMAS, new Set(), 'x')).toEqual({ ratio: 3, loud: false });
  });

  it.each([
    [{ ratio: 'abc' }, 'Argument "ratio" must be a number; got "abc"'],
    [{ ratio: '' }, 'Argument "ratio" must be a number; got ""'],
    [{ ratio: 'Infinity' }, 'Argument "ratio" must be a number; got "Infinity"'],
    [{ count: '1.5' }, 'Argument "count" must be an integer; got "1.5"'],
    [{ loud: 'yes' }, 'Argument "loud" must be "true" or "false"; got "yes"'],
    [{ loud: 'TRUE' }, 'Argument "loud" must be "true" or "false"; got "TRUE"'],
    [{ tone: 'rude' }, 'Argument "tone" must be one of "friendly", "formal"'],
    [{ level: '4' }, 'Argument "level" must be one of 1, 2, 3'],
    [{ name: 5 }, 'Argument "name" must be a string'],
  ])('rejects %j', (raw, message) => {
    expect(failure(() => convertStringArguments(raw, SCHEMAS, new Set(), 'prompts/get')).message).toBe(message);
  });

  it('requires the required arguments', () => {
    const required = new Set(['name']);
    expect(failure(() => convertStringArguments({}, SCHEMAS, required, 'prompts/get')).message).toBe('Missing required argument "name"');
    expect(failure(() => convertStringArguments(undefined, SCHEMAS, required, 'prompts/get')).message).toBe('Missing required argument "name"');
    expect(failure(() => convertStringArguments({ name: null }, SCHEMAS, required, 'prompts/get')).message).toBe('Missing required argument "name"');
    expect(convertStringArguments({ name: '' }, SCHEMAS, required, 'prompts/get')).toEqual({ name: '' });
  });

  it('passes unknown arguments through', () => {
    expect(convertStringArguments({ extra: 'x' }, SCHEMAS, new Set(), 'x')).toEqual({ extra: 'x' });
  });

  it('treats a missing arguments object as empty and rejects a non-object', () => {
    expect(convertStringArguments(undefined, SCHEMAS, new Set(), 'x')).toEqual({});
    expect(convertStringArguments(null, SCHEMAS, new Set(), 'x')).toEqual({});
    expect(failure(() => convertStringArguments(['a'], SCHEMAS, new Set(), 'prompts/get')).message).toBe('prompts/get "arguments" must be an object');
    expect(failure(() => convertStringArguments('a', SCHEMAS, new Set(), 'prompts/get')).message).toBe('prompts/get "arguments" must be an object');
  });
});
