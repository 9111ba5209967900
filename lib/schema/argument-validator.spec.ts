import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsEmail, IsEnum, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { ArgumentValidator, assertObjectRootSchema, assertValidSchema } from './argument-validator.js';
import { dtoToJsonSchema } from './dto-schema.factory.js';

enum Plan {
  Free = 'free',
  Pro = 'pro',
}

class AddressDto {
  @IsString() city!: string;
}

class SignupDto {
  @IsString() name!: string;
  @IsEmail() email!: string;
  @IsOptional() @IsInt() age?: number;
  @IsOptional() @IsEnum(Plan) plan?: Plan;
  @IsOptional() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @IsOptional() @IsString({ each: true }) tags?: string[];
}

/** The conformance suite's `json_schema_2020_12_tool` input schema. */
const conformanceSchema = (): JsonSchemaObject => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
});

describe('ArgumentValidator', () => {
  const validator = new ArgumentValidator(dtoToJsonSchema(SignupDto));
  const valid = { name: 'Ann', email: 'ann@example.com' };

  it('accepts valid arguments with one shared result object', () => {
    const first = validator.validate(valid);
    expect(first).toEqual({ ok: true });
    expect(validator.validate({ ...valid, age: 3, tags: ['a'], address: { city: 'Oslo' } })).toBe(first);
  });

  it.each([
    [{ email: 'ann@example.com' }, 'Invalid arguments: missing required property "name"'],
    [{ ...valid, age: 'old' }, 'Invalid arguments: "age" must be integer'],
    [{ ...valid, email: 'nope' }, 'Invalid arguments: "email" must match format "email"'],
    [{ ...valid, address: { city: 5 } }, 'Invalid arguments: "address.city" must be string'],
    [{ ...valid, address: {} }, 'Invalid arguments: missing required property "address.city"'],
    [{ ...valid, plan: 'gold' }, 'Invalid arguments: "plan" must be one of "free", "pro"'],
    [{ ...valid, tags: ['a', 1] }, 'Invalid arguments: "tags[1]" must be string'],
    ['text', 'Invalid arguments: arguments must be object'],
  ])('names the failing field for %j', (args, message) => {
    expect(validator.validate(args)).toEqual({ ok: false, message });
  });

  it('names every bad argument, each once, in schema order', () => {
    expect(validator.validate({ name: 1, email: 'nope', age: 'old', tags: ['a', 2, 3] })).toEqual({
      ok: false,
      message: 'Invalid arguments: "name" must be string; "email" must match format "email"; "age" must be integer; "tags[1]" must be string; "tags[2]" must be string',
    });
    expect(validator.validate({ address: {} })).toEqual({
      ok: false,
      message: 'Invalid arguments: missing required property "name"; missing required property "email"; missing required property "address.city"',
    });
  });

  it('describes a failed anyOf once, through its alternatives, beside other errors', () => {
    const union = new ArgumentValidator({
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { at: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'string' }] }, n: { type: 'integer', minimum: 3 } },
    });
    expect(union.validate({ at: { x: 'a' }, n: 1.5 })).toEqual({
      ok: false,
      message: 'Invalid arguments: "at" matches none of the allowed schemas (first: "at.x" must be number); "n" must be integer',
    });
  });

  it('does not coerce types', () => {
    expect(validator.validate({ ...valid, age: '3' }).ok).toBe(false);
  });

  it('accepts unknown annotation keywords such as x-mcp-header', () => {
    const headerValidator = new ArgumentValidator({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
    expect(headerValidator.validate({ region: 'eu' }).ok).toBe(true);
    expect(headerValidator.validate({ region: 1 }).ok).toBe(false);
  });

  it('honours a custom prefix and root name', () => {
    const output = new ArgumentValidator({ type: 'array' }, { messagePrefix: 'Invalid structured content', rootName: 'value' });
    expect(output.validate({})).toEqual({ ok: false, message: 'Invalid structured content: value must be array' });
  });

  describe('with the conformance 2020-12 schema', () => {
    const schema = conformanceSchema();
    const conformance = new ArgumentValidator(schema, { where: 'tool "json_schema_2020_12_tool"' });

    it('leaves the schema untouched', () => {
      expect(schema).toEqual(conformanceSchema());
      expect(conformance.schema).toBe(schema);
    });

    it('validates composition, conditionals, $ref and additionalProperties', () => {
      expect(conformance.validate({ name: 'a', contactMethod: 'email', email: 'a@b.c' })).toEqual({ ok: true });
      expect(conformance.validate({ name: 'a', contactMethod: 'phone', phone: '1', address: { city: 'x' } })).toEqual({ ok: true });
      // Both the anyOf and the else branch fail: each is reported.
      expect(conformance.validate({ name: 'a', contactMethod: 'email' })).toEqual({
        ok: false,
        message: 'Invalid arguments: missing required property: one of "phone", "email"; missing required property "email"',
      });
      expect(conformance.validate({ name: 'a', contactMethod: 'email', phone: '1' })).toEqual({
        ok: false,
        message: 'Invalid arguments: missing required property "email"',
      });
      expect(conformance.validate({ name: 'a', email: 'a@b.c', extra: 1 })).toEqual({
        ok: false,
        message: 'Invalid arguments: unexpected property "extra"',
      });
      expect(conformance.validate({ name: 'a', email: 'a@b.c', address: { city: 1 } })).toEqual({
        ok: false,
        message: 'Invalid arguments: "address.city" must be string',
      });
    });
  });
});

describe('assertValidSchema', () => {
  it('accepts valid schemas', () => {
    expect(() => assertValidSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'tool "t"')).not.toThrow();
  });

  it.each([
    [{ type: 'strin' }, /Invalid JSON Schema for tool "broken": .*type/],
    [{ type: 'object', properties: { a: { minLength: -1 } } }, /tool "broken".*minLength/],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, /tool "broken".*can't resolve reference/],
    [{ type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } }, /tool "broken".*can't resolve reference/],
    [{ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, /tool "broken"/],
    [null, /tool "broken": a schema must be an object/],
  ])('rejects %j naming where', (schema, message) => {
    expect(() => assertValidSchema(schema, 'tool "broken"')).toThrow(message);
  });

  it('makes the ArgumentValidator constructor fail the same way', () => {
    expect(() => new ArgumentValidator({ type: 'nope' }, { where: 'tool "x"' })).toThrow(/tool "x"/);
  });
});

describe('assertObjectRootSchema', () => {
  it('accepts an object root', () => {
    expect(() => assertObjectRootSchema({ type: 'object' }, 'tool "t"')).not.toThrow();
  });

  it.each([[{ type: 'array' }], [{}], [{ type: ['object', 'null'] }], [null]])('rejects %j', (schema) => {
    expect(() => assertObjectRootSchema(schema, 'tool "t"')).toThrow('Invalid input schema for tool "t": the root must have "type": "object"');
  });
});
