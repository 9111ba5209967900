import { describe, expect, it, jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject } from 'ajv/dist/2020.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MetaSchemaAjv } from './meta-schema-ajv.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Schemas the meta-schema accepts and schemas it refuses, at the root and deep inside. */
const SCHEMAS: [string, AnySchemaObject][] = [
  ['a tool input schema', { type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer' } }, required: ['city'] }],
  ['the dialect named', { $schema: DRAFT_2020_12, type: 'object', $defs: { unit: { enum: ['c', 'f'] } }, properties: { unit: { $ref: '#/$defs/unit' } } }],
  ['composition and unevaluated keywords', { anyOf: [{ type: 'string' }, { type: 'number' }], unevaluatedProperties: false, if: { minProperties: 1 }, then: { required: ['a'] } }],
  ['annotations Ajv does not know', { type: 'object', 'x-mcp-header': 'X-City', properties: { a: { type: 'string', format: 'email' } } }],
  ['an unknown type', { type: 'strin' }],
  ['a negative length deep inside', { type: 'object', properties: { a: { type: 'object', properties: { b: { minLength: -1 } } } } }],
  ['required not an array', { type: 'object', required: 'city' }],
  ['a repeated required name (uniqueItems)', { type: 'object', required: ['city', 'city'] }],
  ['a repeated type (uniqueItems)', { type: ['string', 'string'] }],
  ['several errors', { type: 'object', minProperties: 'x', properties: { a: { type: 7 }, b: { maximum: 'high' } } }],
  ['the dialect named, with an error', { $schema: DRAFT_2020_12, items: 5 }],
  ['another dialect', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }],
];

/** What Ajv itself answers for `schema`: validateSchema's answer, its errors, and compile's error message. */
function outcome(ajv: Ajv2020, schema: AnySchemaObject) {
  let valid: unknown;
  try {
    valid = ajv.validateSchema(schema);
  } catch (error) {
    valid = `throws: ${(error as Error).message}`;
  }
  const errors = ajv.errors;
  let compiled: string;
  try {
    ajv.compile(schema);
    compiled = 'compiles';
  } catch (error) {
    compiled = (error as Error).message;
  }
  return { valid, errors, compiled };
}

describe('MetaSchemaAjv', () => {
  describe.each([false, true])('with allErrors: %s', (allErrors) => {
    const options = { strict: false, allErrors, coerceTypes: false, addUsedSchema: false, logger: false } as const;

    it.each(SCHEMAS)('answers as Ajv does for %s (validity, errors, compile message)', (_name, schema) => {
      expect(outcome(new MetaSchemaAjv(options), schema)).toEqual(outcome(new Ajv2020(options), schema));
    });
  });

  it("never has Ajv compile the meta-schema for a valid schema in the default dialect", () => {
    const ajvOwnCheck = jest.spyOn(Ajv2020.prototype, 'validateSchema');
    try {
      const ajv = new MetaSchemaAjv({ strict: false, allErrors: true, logger: false });
      for (const [, schema] of SCHEMAS.slice(0, 4)) ajv.compile(schema);
      expect(ajvOwnCheck).not.toHaveBeenCalled();
      // Another dialect is Ajv's to check, as is an invalid schema on an all-errors instance (to list every error).
      expect(() => ajv.compile({ $schema: 'http://json-schema.org/draft-07/schema#' })).toThrow('no schema with key or ref');
      expect(() => ajv.compile({ type: 7, minLength: -1 })).toThrow(/^schema is invalid: data\/type must be .*, data\/minLength must be >= 0$/);
      expect(ajvOwnCheck).toHaveBeenCalledTimes(2);
    } finally {
      ajvOwnCheck.mockRestore();
    }
  });

  it('runs the code the installed ajv generates (npm run generate:meta-validator)', () => {
    const script = fileURLToPath(new URL('../../scripts/generate-meta-validator.mjs', import.meta.url));
    const check = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
