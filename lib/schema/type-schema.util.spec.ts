import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { ArgumentValidator } from './argument-validator.js';
import { dtoToJsonSchema } from './dto-schema.factory.js';
import { schemaHole } from './schema-helpers.js';
import { composeObjectSchema, schemaForDesignType } from './type-schema.util.js';

enum Unit {
  Celsius = 'c',
  Fahrenheit = 'f',
}

enum Priority {
  Low = 1,
  High = 2,
}

class QueryDto {
  @IsString() q!: string;
}

class NodeDto {
  @IsString() id!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => NodeDto) children?: NodeDto[];
}

describe('schemaForDesignType', () => {
  it.each([
    [String, { type: 'string' }],
    [Number, { type: 'number' }],
    [Boolean, { type: 'boolean' }],
    [Date, { type: 'string', format: 'date-time' }],
    [Array, { type: 'array' }],
    [Object, {}],
    [undefined, {}],
  ])('maps %p', (type, schema) => {
    expect(schemaForDesignType(type)).toEqual(schema);
  });

  it('maps TS enums and value lists', () => {
    expect(schemaForDesignType(String, { enum: Unit })).toEqual({ type: 'string', enum: ['c', 'f'] });
    expect(schemaForDesignType(Number, { enum: Priority })).toEqual({ type: 'integer', enum: [1, 2] });
    expect(schemaForDesignType(String, { enum: ['a', 'b'] as const })).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(schemaForDesignType(Array, { enum: Unit })).toEqual({ type: 'array', items: { type: 'string', enum: ['c', 'f'] } });
  });

  it('uses items for arrays, including DTO items', () => {
    expect(schemaForDesignType(Array, { items: String })).toEqual({ type: 'array', items: { type: 'string' } });
    expect(schemaForDesignType(Array, { items: QueryDto })).toEqual({
      type: 'array',
      items: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    });
  });

  it('maps DTO classes through dtoToJsonSchema and adds a description without touching the cache', () => {
    expect(schemaForDesignType(QueryDto, { description: 'The query' })).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      description: 'The query',
    });
    expect(dtoToJsonSchema(QueryDto)).not.toHaveProperty('description');
  });

  it('adds descriptions', () => {
    expect(schemaForDesignType(Number, { description: 'How many' })).toEqual({ type: 'number', description: 'How many' });
  });

  it('returns an explicit schema verbatim, ignoring the design type and other options', () => {
    const raw: JsonSchemaObject = { type: 'string', 'x-mcp-header': 'Region', anyOf: [{ minLength: 1 }] };
    expect(schemaForDesignType(Number, { schema: raw, description: 'ignored', enum: Unit })).toBe(raw);
    expect(raw).toEqual({ type: 'string', 'x-mcp-header': 'Region', anyOf: [{ minLength: 1 }] });
  });
});

describe('schemaHole of a parameter schema', () => {
  it.each([
    [Object, {}, 'any'],
    [Array, {}, 'untyped-array'],
    [Array, { items: String }, undefined],
    [Array, { enum: Unit }, undefined],
    [Object, { enum: [1, 'a'] }, undefined],
    [Object, { description: 'anything' }, 'any'],
    [String, {}, undefined],
    [QueryDto, {}, undefined],
  ])('for %p with %j is %p', (type, options, hole) => {
    expect(schemaHole(schemaForDesignType(type, options))).toBe(hole);
  });
});

describe('composeObjectSchema', () => {
  it('builds the root object with properties and required', () => {
    expect(
      composeObjectSchema([
        { name: 'city', schema: schemaForDesignType(String, { description: 'City' }) },
        { name: 'days', schema: schemaForDesignType(Number), required: false },
      ]),
    ).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City' }, days: { type: 'number' } },
      required: ['city'],
    });
  });

  it('gives a closed empty object for a tool without parameters', () => {
    expect(composeObjectSchema([], { additionalProperties: false })).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('hoists $defs of recursive DTO parameters so their references resolve', () => {
    const schema = composeObjectSchema([
      { name: 'root', schema: schemaForDesignType(NodeDto) },
      { name: 'other', schema: schemaForDesignType(NodeDto), required: false },
    ]);
    expect(schema.properties.root).not.toHaveProperty('$defs');
    expect(Object.keys(schema.$defs as object)).toEqual(['NodeDto']);
    const validator = new ArgumentValidator(schema);
    expect(validator.validate({ root: { id: 'a', children: [{ id: 'b', children: [{ id: 'c' }] }] } }).ok).toBe(true);
    expect(validator.validate({ root: { id: 'a', children: [{ id: 'b', children: [{ id: 3 }] }] } })).toEqual({
      ok: false,
      message: 'Invalid arguments: "root.children[0].children[0].id" must be string',
    });
  });

  it('rejects duplicate names and clashing $defs', () => {
    expect(() => composeObjectSchema([{ name: 'a', schema: {} }, { name: 'a', schema: {} }], { where: 'tool "t"' })).toThrow('tool "t": duplicate parameter "a"');
    expect(() =>
      composeObjectSchema([
        { name: 'a', schema: { $defs: { X: { type: 'string' } } } },
        { name: 'b', schema: { $defs: { X: { type: 'number' } } } },
      ]),
    ).toThrow(/different \$defs entry "X"/);
  });
});
