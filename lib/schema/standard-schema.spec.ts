import { describe, expect, it } from '@jest/globals';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { describeIssues, isStandardSchema, standardJsonSchema, StandardValidator, type StandardSchemaV1 } from './standard-schema.js';

describe('isStandardSchema', () => {
  it('knows the three libraries\' schemas (an ArkType schema is a function) and nothing else', () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema(v.string())).toBe(true);
    expect(isStandardSchema(type('string'))).toBe(true);
    for (const other of [undefined, null, {}, { type: 'object' }, () => 1, { '~standard': {} }, { '~standard': { validate: 'no' } }]) {
      expect(isStandardSchema(other)).toBe(false);
    }
  });
});

describe('standardJsonSchema', () => {
  it('names what to do when a schema has no converter (Valibot unwrapped)', () => {
    expect(() => standardJsonSchema(v.object({ a: v.string() }), 'input', 'tool "x"')).toThrow(
      'The valibot schema of tool "x" cannot convert itself to JSON Schema (no "~standard.jsonSchema"): use Zod 4.2 or later, ArkType 2.1.28 or later, or wrap a Valibot schema in toStandardJsonSchema() from @valibot/to-json-schema',
    );
  });

  it('turns a converter\'s refusal into a start-up error naming the owner and the side', () => {
    const transformed = z.object({ at: z.string().transform((text) => new Date(text)) });
    expect(standardJsonSchema(transformed, 'input', 'tool "x"')).toMatchObject({ type: 'object', properties: { at: { type: 'string' } } });
    expect(() => standardJsonSchema(transformed, 'output', 'tool "x"')).toThrow(/^The zod schema of tool "x" cannot be converted to JSON Schema \(output\): /);
  });

  it('refuses what a converter returns when the meta-schema refuses it', () => {
    const broken = { '~standard': { version: 1, vendor: 'home-made', validate: () => ({ value: 1 }), jsonSchema: { input: () => ({ type: 12 }), output: () => ({}) } } } as unknown as StandardSchemaV1;
    expect(() => standardJsonSchema(broken, 'input', 'tool "x"')).toThrow(/^Invalid JSON Schema for tool "x": /);
  });
});

describe('StandardValidator', () => {
  it('hands back the output value: defaults and transforms applied', async () => {
    const validator = new StandardValidator(z.object({ n: z.number().default(2), s: z.string().transform((text) => text.length) }));
    await expect(validator.validate({ s: 'abc' })).resolves.toEqual({ ok: true, value: { n: 2, s: 3 } });
  });

  it('awaits an async validate', async () => {
    const validator = new StandardValidator(z.string().refine(async (text) => text === 'yes', 'say yes'), { messagePrefix: 'Invalid answer' });
    await expect(validator.validate('yes')).resolves.toEqual({ ok: true, value: 'yes' });
    await expect(validator.validate('no')).resolves.toEqual({ ok: false, message: 'Invalid answer: say yes' });
  });
});

describe('describeIssues', () => {
  it('names each issue by its path: keys and { key } segments, array indexes in brackets', () => {
    expect(describeIssues([
      { message: 'Expected string', path: ['address', 'lines', 0] },
      { message: 'Required', path: [{ key: 'items' }, { key: 2 }, { key: 'name' }] },
      { message: 'Expected object' },
    ])).toBe('"address.lines[0]": Expected string; "items[2].name": Required; Expected object');
  });

  it('does not repeat a path a message starts with (ArkType), nor the same sentence twice', () => {
    expect(describeIssues([
      { message: 'city must be a string (was number)', path: ['city'] },
      { message: 'city must be a string (was number)', path: ['city'] },
    ])).toBe('"city" must be a string (was number)');
    expect(describeIssues([])).toBe('validation failed');
  });
});
