import { describe, expect, it } from '@jest/globals';
import { ElicitResult } from './elicit-result.js';

describe('ElicitResult', () => {
  const accepted = new ElicitResult({
    action: 'accept',
    content: { name: 'Ada', age: 36, whole: 3.0, ratio: 0.25, ok: true, plan: 'pro', tags: ['a', 'b'] },
  });

  it('reports the action', () => {
    expect([accepted.isAccepted(), accepted.isDeclined(), accepted.isCancelled()]).toEqual([true, false, false]);
    const declined = ElicitResult.decline();
    expect([declined.action, declined.isAccepted(), declined.isDeclined(), declined.isCancelled()]).toEqual(['decline', false, true, false]);
    const cancelled = ElicitResult.cancel();
    expect([cancelled.action, cancelled.isAccepted(), cancelled.isDeclined(), cancelled.isCancelled()]).toEqual(['cancel', false, false, true]);
  });

  it('reads each field with its typed getter', () => {
    expect(accepted.getString('name')).toBe('Ada');
    expect(accepted.getInteger('age')).toBe(36);
    expect(accepted.getInteger('whole')).toBe(3);
    expect(accepted.getNumber('ratio')).toBe(0.25);
    expect(accepted.getNumber('age')).toBe(36);
    expect(accepted.getBool('ok')).toBe(true);
    expect(accepted.getChoice<'pro' | 'team'>('plan')).toBe('pro');
    expect(accepted.getChoices('tags')).toEqual(['a', 'b']);
  });

  it('returns undefined for a missing field, or the default when one is given', () => {
    expect(accepted.getString('missing')).toBeUndefined();
    expect(accepted.getString('missing', 'fallback')).toBe('fallback');
    expect(accepted.getInteger('missing', 7)).toBe(7);
    expect(accepted.getNumber('missing')).toBeUndefined();
    expect(accepted.getBool('missing', false)).toBe(false);
    expect(accepted.getChoice('missing', 'team')).toBe('team');
    expect(accepted.getChoices('missing')).toBeUndefined();
    expect(accepted.getChoices('missing', ['x'])).toEqual(['x']);
    // A present value wins over the default.
    expect(accepted.getString('name', 'fallback')).toBe('Ada');
  });

  it('does not resolve field names through Object.prototype', () => {
    expect(accepted.getString('toString')).toBeUndefined();
    expect(accepted.has('constructor')).toBe(false);
    expect(accepted.has('name')).toBe(true);
  });

  it('keeps a "__proto__" field of the answer as data, not as the prototype of content', () => {
    const result = new ElicitResult(JSON.parse('{"action":"accept","content":{"__proto__":["x"],"name":"Ada"}}'));
    expect(Object.getPrototypeOf(result.content)).toBe(Object.prototype);
    expect(result.getChoices('__proto__')).toEqual(['x']);
    expect(result.getString('name')).toBe('Ada');
  });

  it('treats an accept without content as all fields missing', () => {
    const empty = new ElicitResult({ action: 'accept' });
    expect(empty.content).toEqual({});
    expect(empty.getBool('ok')).toBeUndefined();
  });

  it('throws naming the field and both types when a value has the wrong type', () => {
    expect(() => accepted.getString('age')).toThrow('Elicitation field "age" is an integer (36), expected a string');
    expect(() => accepted.getInteger('ratio')).toThrow('Elicitation field "ratio" is a number (0.25), expected an integer');
    expect(() => accepted.getBool('name')).toThrow('Elicitation field "name" is a string, expected a boolean');
    expect(() => accepted.getNumber('ok')).toThrow('Elicitation field "ok" is a boolean, expected a number');
    expect(() => accepted.getChoice('tags')).toThrow('Elicitation field "tags" is an array, expected a string');
    expect(() => accepted.getChoices('plan')).toThrow('Elicitation field "plan" is a string, expected an array of strings');
    expect(() => accepted.getString('age', 'x')).toThrow(TypeError);
  });

  it('throws on every getter of a declined or cancelled result, even with a default', () => {
    const declined = ElicitResult.decline();
    const cancelled = new ElicitResult({ action: 'cancel' });
    const message = 'the user declined the elicitation; check isAccepted() before reading fields';
    expect(() => declined.getString('name')).toThrow(message);
    expect(() => declined.getInteger('age', 1)).toThrow(message);
    expect(() => declined.getNumber('x')).toThrow(message);
    expect(() => declined.getBool('x')).toThrow(message);
    expect(() => declined.getChoice('x')).toThrow(message);
    expect(() => declined.getChoices('x', [])).toThrow(message);
    expect(() => cancelled.getString('name')).toThrow('the user cancelled the elicitation; check isAccepted() before reading fields');
    expect(() => cancelled.getString('name')).toThrow('Cannot read field "name"');
  });

  it('drops content sent with a decline so it cannot be read', () => {
    const declined = new ElicitResult({ action: 'decline', content: { name: 'Ada' } });
    expect(declined.content).toEqual({});
    expect(declined.toJSON()).toEqual({ action: 'decline' });
  });

  it('freezes content and hands out copies of multi-select values', () => {
    const source = { tags: ['a'] };
    const result = ElicitResult.accept(source);
    source.tags.push('mutated');
    expect(result.getChoices('tags')).toEqual(['a']);
    result.getChoices('tags')?.push('b');
    expect(result.getChoices('tags')).toEqual(['a']);
    expect(Object.isFrozen(result.content)).toBe(true);
    expect(() => {
      (result.content as Record<string, unknown>).tags = [];
    }).toThrow(TypeError);
  });

  it('treats a null value like a missing field', () => {
    const result = new ElicitResult({ action: 'accept', content: { n: null as unknown as string } });
    expect(result.getString('n', 'dflt')).toBe('dflt');
  });

  it('round-trips to the wire shape', () => {
    expect(new ElicitResult({ action: 'accept', content: { a: 1 }, _meta: { k: 'v' } }).toJSON()).toEqual({
      action: 'accept',
      content: { a: 1 },
      _meta: { k: 'v' },
    });
  });
});
