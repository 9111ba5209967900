import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { dtoSchemaHoles, dtoToJsonSchema } from './dto-schema.factory.js';
import { McpField, McpObject } from './mcp-field.decorator.js';

/** A strict 2020-12 validator: any non-standard keyword except `x-mcp-header` fails to compile. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true });
  ajvFormats.default(ajv);
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

function expectValid2020(schema: JsonSchemaObject): void {
  expect(() => strictAjv().compile(schema)).not.toThrow();
}

enum Color {
  Red = 'red',
  Green = 'green',
}

enum Level {
  Low,
  High,
}

class PrimitivesDto {
  @IsString() name!: string;
  @IsInt() count!: number;
  @IsNumber() ratio!: number;
  @IsBoolean() active!: boolean;
}

class FormatsDto {
  @IsEmail() email!: string;
  @IsUrl() homepage!: string;
  @IsUUID() id!: string;
  @IsDateString() startsAt!: string;
  @IsISO8601() endsAt!: string;
}

class EnumsDto {
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsEnum(['a', 'b']) letter!: string;
  @IsIn(['x', 'y']) axis!: string;
  @IsIn([1, 2, 3]) small!: number;
}

class NumbersDto {
  @IsInt() @Min(1) @Max(10) rating!: number;
  // Constraint decorators alone imply `number`; with @IsInt the type stays `integer` whatever the order.
  @Min(0) @IsInt() reversed!: number;
  @IsPositive() amount!: number;
  @Min(0.5) ratio!: number;
}

class StringsDto {
  @IsString() @MinLength(2) @MaxLength(5) code!: string;
  @Length(3, 8) nick!: string;
  @Length(1) atLeastOne!: string;
  @Matches(/^[a-z]+$/) lower!: string;
  @Matches(/^[a-z]+$/i) caseless!: string;
  @IsString() @IsNotEmpty() notEmpty!: string;
}

class ArraysDto {
  @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags!: string[];
  @IsInt({ each: true }) ids!: number[];
  @IsArray() anything!: unknown[];
  @ArrayNotEmpty() @IsEmail({}, { each: true }) emails!: string[];
}

class OptionalDto {
  @IsString() required!: string;
  @IsOptional() @IsString() maybe?: string;
  @IsDefined() @IsOptional() forced?: string;
}

class AddressDto {
  @IsString() city!: string;
  @IsOptional() @IsString() zip?: string;
}

class PersonDto {
  @IsString() name!: string;
  @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => AddressDto) previous?: AddressDto[];
}

class TreeDto {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeDto) children?: TreeDto[];
}

// A forward class reference in design:type would hit the TDZ under ESM; @Type() names the class.
interface PongShape {
  ping?: unknown;
}

class PingDto {
  @IsOptional() @ValidateNested() @Type(() => PongDto) pong?: PongShape;
}

class PongDto {
  @IsOptional() @ValidateNested() @Type(() => PingDto) ping?: PingDto;
}

class FieldDto {
  @McpField({ description: 'Login e-mail', title: 'E-mail', examples: ['a@b.c'] })
  @IsEmail()
  email!: string;

  @McpField({ description: 'Region header', 'x-mcp-header': 'Region' })
  region!: string;

  @McpField({ optional: true })
  limit?: number;

  @McpField({ description: 'When' })
  at!: Date;

  @McpField({ format: 'date' })
  @IsDateString()
  day!: string;

  @McpField({ items: { type: 'string' } })
  labels!: string[];

  @McpField({ description: 'Nested without class-validator' })
  home!: AddressDto;
}

@McpObject({ description: 'A closed object', additionalProperties: false })
class ClosedDto {
  @IsString() a!: string;
}

class BaseDto {
  @IsString() id!: string;
  @McpField({ description: 'base' }) @IsString() note!: string;
}

class DerivedDto extends BaseDto {
  @IsInt() extra!: number;
  @McpField({ description: 'derived' }) declare note: string;
}

describe('dtoToJsonSchema', () => {
  it('maps primitive type validators', () => {
    expect(dtoToJsonSchema(PrimitivesDto)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        active: { type: 'boolean' },
      },
      required: ['name', 'count', 'ratio', 'active'],
    });
  });

  it('maps string formats to standard 2020-12 formats', () => {
    expect(dtoToJsonSchema(FormatsDto).properties).toEqual({
      email: { type: 'string', format: 'email' },
      homepage: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      startsAt: { type: 'string', format: 'date-time' },
      endsAt: { type: 'string', format: 'date-time' },
    });
  });

  it('maps enums and value lists, dropping the reverse mapping of numeric TS enums', () => {
    expect(dtoToJsonSchema(EnumsDto).properties).toEqual({
      color: { type: 'string', enum: ['red', 'green'] },
      level: { type: 'integer', enum: [0, 1] },
      letter: { type: 'string', enum: ['a', 'b'] },
      axis: { type: 'string', enum: ['x', 'y'] },
      small: { type: 'integer', enum: [1, 2, 3] },
    });
  });

  it('maps numeric bounds with 2020-12 numeric exclusive bounds', () => {
    expect(dtoToJsonSchema(NumbersDto).properties).toEqual({
      rating: { type: 'integer', minimum: 1, maximum: 10 },
      reversed: { type: 'integer', minimum: 0 },
      amount: { type: 'number', exclusiveMinimum: 0 },
      ratio: { type: 'number', minimum: 0.5 },
    });
  });

  it('maps string lengths and patterns, skipping patterns whose flags JSON Schema cannot carry', () => {
    expect(dtoToJsonSchema(StringsDto).properties).toEqual({
      code: { type: 'string', minLength: 2, maxLength: 5 },
      nick: { type: 'string', minLength: 3, maxLength: 8 },
      atLeastOne: { type: 'string', minLength: 1 },
      lower: { type: 'string', pattern: '^[a-z]+$' },
      caseless: { type: 'string' },
      notEmpty: { type: 'string', minLength: 1 },
    });
  });

  it('maps arrays, array sizes and per-item validators', () => {
    expect(dtoToJsonSchema(ArraysDto).properties).toEqual({
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      ids: { type: 'array', items: { type: 'integer' } },
      anything: { type: 'array' },
      emails: { type: 'array', minItems: 1, items: { type: 'string', format: 'email' } },
    });
  });

  it('leaves @IsOptional properties out of required unless @IsDefined', () => {
    const schema = dtoToJsonSchema(OptionalDto);
    expect(schema.required).toEqual(['required', 'forced']);
    expect(schema.properties.maybe).toEqual({ type: 'string' });
  });

  it('inlines nested DTOs and arrays of nested DTOs', () => {
    const address = { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] };
    expect(dtoToJsonSchema(PersonDto)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        address,
        previous: { type: 'array', items: address },
      },
      required: ['name', 'address'],
    });
  });

  it('puts a recursive DTO under $defs and references it by JSON pointer', () => {
    const tree = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/TreeDto' } },
      },
      required: ['label'],
    };
    const schema = dtoToJsonSchema(TreeDto);
    expect(schema).toEqual({ ...tree, $defs: { TreeDto: tree } });
    const validate = strictAjv().compile(schema);
    expect(validate({ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] })).toBe(true);
    expect(validate({ label: 'a', children: [{ label: 'b', children: [{ children: [] }] }] })).toBe(false);
  });

  it('handles mutually recursive DTOs', () => {
    const schema = dtoToJsonSchema(PingDto);
    expect(schema.properties.pong).toEqual({
      type: 'object',
      properties: { ping: { $ref: '#/$defs/PingDto' } },
    });
    expect(Object.keys(schema.$defs ?? {})).toEqual(['PingDto']);
    const validate = strictAjv().compile(schema);
    expect(validate({ pong: { ping: { pong: { ping: {} } } } })).toBe(true);
    expect(validate({ pong: { ping: { pong: 'x' } } })).toBe(false);
  });

  it('applies @McpField keywords, and supports it without class-validator decorators', () => {
    expect(dtoToJsonSchema(FieldDto)).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', description: 'Login e-mail', title: 'E-mail', examples: ['a@b.c'] },
        day: { type: 'string', format: 'date' },
        region: { type: 'string', description: 'Region header', 'x-mcp-header': 'Region' },
        limit: { type: 'number' },
        at: { type: 'string', format: 'date-time', description: 'When' },
        labels: { type: 'array', items: { type: 'string' } },
        home: {
          type: 'object',
          properties: { city: { type: 'string' }, zip: { type: 'string' } },
          required: ['city'],
          description: 'Nested without class-validator',
        },
      },
      required: ['email', 'day', 'region', 'at', 'labels', 'home'],
    });
  });

  it('applies @McpObject keywords to the object schema', () => {
    expect(dtoToJsonSchema(ClosedDto)).toEqual({
      type: 'object',
      description: 'A closed object',
      additionalProperties: false,
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('includes inherited properties first and lets a subclass override @McpField', () => {
    const schema = dtoToJsonSchema(DerivedDto);
    expect(Object.keys(schema.properties)).toEqual(['id', 'note', 'extra']);
    expect(schema.properties.note).toEqual({ type: 'string', description: 'derived' });
    expect(dtoToJsonSchema(BaseDto).properties.note).toEqual({ type: 'string', description: 'base' });
  });

  it('caches per class and freezes the result', () => {
    const schema = dtoToJsonSchema(PersonDto);
    expect(dtoToJsonSchema(PersonDto)).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties.address)).toBe(true);
  });

  it('gives an empty object schema for a class without metadata', () => {
    class Empty {}
    expect(dtoToJsonSchema(Empty)).toEqual({ type: 'object', properties: {} });
  });

  it.each([
    PrimitivesDto,
    FormatsDto,
    EnumsDto,
    NumbersDto,
    StringsDto,
    ArraysDto,
    OptionalDto,
    PersonDto,
    TreeDto,
    PingDto,
    FieldDto,
    ClosedDto,
    DerivedDto,
  ])('generates a schema %p that compiles under strict Ajv2020', (dto) => {
    expectValid2020(dtoToJsonSchema(dto));
  });

  it('emits no OpenAPI/draft-4 leftovers', () => {
    const text = JSON.stringify([NumbersDto, PersonDto, TreeDto, EnumsDto].map((dto) => dtoToJsonSchema(dto)));
    expect(text).not.toMatch(/"nullable"|"definitions"|"exclusiveM(in|ax)imum":(true|false)/);
  });

  describe('dtoSchemaHoles', () => {
    class TagDto {
      @IsString() label!: string;
      @IsOptional() meta?: Record<string, unknown>;
    }

    class HolesDto {
      @IsDefined() value!: string | number;
      @IsArray() tags!: string[];
      @IsString({ each: true }) names!: string[];
      @McpField({ items: { type: 'integer' } }) @IsArray() counts!: number[];
      @McpField({ anyOf: [{ type: 'string' }, { type: 'number' }] }) @IsDefined() either!: string | number;
      @ValidateNested() @Type(() => TagDto) tag!: TagDto;
    }

    it('names each property whose schema accepts any value or any array items, nested ones by their class', () => {
      expect(dtoSchemaHoles(HolesDto)).toEqual([
        { dto: HolesDto, property: 'value', hole: 'any' },
        { dto: HolesDto, property: 'tags', hole: 'untyped-array' },
        { dto: TagDto, property: 'meta', hole: 'any' },
      ]);
    });

    it('finds none in a fully typed DTO', () => {
      expect(dtoSchemaHoles(PersonDto)).toEqual([]);
    });
  });
});
