import { describe, expect, it } from '@jest/globals';
import type { ElicitRequestFormParams } from '../protocol/wire.types.js';
import { ElicitationSchemaBuilder } from './elicitation-schema.builder.js';
import type { ElicitationRequestedSchema } from './elicitation-schema.types.js';
import { defErrors } from '../../test/support/wire-schema.js';


/** Validates against the spec's own definition; returns ajv's error text so failures explain themselves. */
function specErrors(requestedSchema: ElicitationRequestedSchema): string | null {
  const params: ElicitRequestFormParams = { mode: 'form', message: 'm', requestedSchema };
  const paramsErrors = defErrors(params, 'ElicitRequestFormParams');
  if (paramsErrors) return paramsErrors;
  for (const [name, property] of Object.entries(requestedSchema.properties)) {
    const propertyErrors = defErrors(property, 'PrimitiveSchemaDefinition');
    if (propertyErrors) return `${name}: ${propertyErrors}`;
  }
  return null;
}

/** Stricter than the spec's anyOf (whose branches allow extra keys): exactly one branch's keys, no others. */
const ALLOWED_KEYS: Record<string, string[]> = {
  string: ['type', 'title', 'description', 'minLength', 'maxLength', 'format', 'default'],
  number: ['type', 'title', 'description', 'minimum', 'maximum', 'default'],
  boolean: ['type', 'title', 'description', 'default'],
  enum: ['type', 'title', 'description', 'enum', 'default'],
  oneOf: ['type', 'title', 'description', 'oneOf', 'default'],
  array: ['type', 'title', 'description', 'minItems', 'maxItems', 'items', 'default'],
};
function unexpectedKeys(property: Record<string, unknown>): string[] {
  const branch =
    property.type === 'array' ? 'array'
    : 'enum' in property ? 'enum'
    : 'oneOf' in property ? 'oneOf'
    : property.type === 'integer' ? 'number'
    : String(property.type);
  return Object.keys(property).filter((key) => !(ALLOWED_KEYS[branch] ?? []).includes(key));
}

describe('ElicitationSchemaBuilder', () => {
  it('builds the README example with required and optional properties', () => {
    const schema = ElicitationSchemaBuilder.build((s) =>
      s
        .string('name', 'Your name')
        .string('email', 'Email', (p) => p.email())
        .integer('age', 'Age', (n) => n.minimum(0).optional())
        .bool('ok', 'Agree?')
        .choice('plan', 'Plan', ['pro', 'team']),
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name' },
        email: { type: 'string', title: 'Email', format: 'email' },
        age: { type: 'integer', title: 'Age', minimum: 0 },
        ok: { type: 'boolean', title: 'Agree?' },
        plan: { type: 'string', title: 'Plan', enum: ['pro', 'team'] },
      },
      required: ['name', 'email', 'ok', 'plan'],
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('emits every string keyword and each allowed format', () => {
    const schema = new ElicitationSchemaBuilder()
      .string('bio', 'Bio', (s) => s.description('About you').minLength(2).maxLength(200).default('hi'))
      .string('site', undefined, (s) => s.uri())
      .string('day', 'Day', (s) => s.date())
      .string('at', 'At', (s) => s.dateTime())
      .string('mail', 'Mail', (s) => s.format('email').title('E-mail'))
      .build();
    expect(schema.properties).toEqual({
      bio: { type: 'string', title: 'Bio', description: 'About you', minLength: 2, maxLength: 200, default: 'hi' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', title: 'Day', format: 'date' },
      at: { type: 'string', title: 'At', format: 'date-time' },
      mail: { type: 'string', title: 'E-mail', format: 'email' },
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('emits integer and number bounds and defaults', () => {
    const schema = new ElicitationSchemaBuilder()
      .integer('count', 'Count', (n) => n.minimum(1).maximum(10).default(3).description('How many'))
      .number('ratio', 'Ratio', (n) => n.minimum(0).maximum(1).default(0.5))
      .build();
    expect(schema.properties).toEqual({
      count: { type: 'integer', title: 'Count', minimum: 1, maximum: 10, default: 3, description: 'How many' },
      ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1, default: 0.5 },
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('emits booleans with defaults, via bool and its boolean alias', () => {
    const schema = new ElicitationSchemaBuilder()
      .bool('a', 'A', (b) => b.default(true))
      .boolean('b', 'B', (b) => b.default(false).optional())
      .build();
    expect(schema).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean', title: 'A', default: true }, b: { type: 'boolean', title: 'B', default: false } },
      required: ['a'],
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('emits untitled and titled single-select enums (choice and singleSelectEnum)', () => {
    const schema = new ElicitationSchemaBuilder()
      .choice('plan', 'Plan', ['pro', 'team'], (c) => c.default('team'))
      .singleSelectEnum('tier', 'Tier', [
        { value: 'gold', title: 'Gold tier' },
        { value: 'silver', title: 'Silver tier' },
      ], (c) => c.default('gold').description('Pick one'))
      .build();
    expect(schema.properties).toEqual({
      plan: { type: 'string', title: 'Plan', enum: ['pro', 'team'], default: 'team' },
      tier: {
        type: 'string',
        title: 'Tier',
        description: 'Pick one',
        default: 'gold',
        oneOf: [
          { const: 'gold', title: 'Gold tier' },
          { const: 'silver', title: 'Silver tier' },
        ],
      },
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('turns a mixed option list into titled options, using the value as the missing title', () => {
    const schema = new ElicitationSchemaBuilder().choice('x', 'X', ['a', { value: 'b', title: 'Bee' }]).build();
    expect(schema.properties.x).toEqual({ type: 'string', title: 'X', oneOf: [{ const: 'a', title: 'a' }, { const: 'b', title: 'Bee' }] });
  });

  it('emits untitled and titled multi-select enums (choices and multiSelectEnum)', () => {
    const schema = new ElicitationSchemaBuilder()
      .choices('tags', 'Tags', ['a', 'b', 'c'], (c) => c.minItems(1).maxItems(2).default(['a']))
      .multiSelectEnum('days', 'Days', [
        { value: 'mon', title: 'Monday' },
        { value: 'tue', title: 'Tuesday' },
      ], (c) => c.default(['mon', 'tue']).optional())
      .build();
    expect(schema).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', title: 'Tags', minItems: 1, maxItems: 2, default: ['a'], items: { type: 'string', enum: ['a', 'b', 'c'] } },
        days: {
          type: 'array',
          title: 'Days',
          default: ['mon', 'tue'],
          items: { anyOf: [{ const: 'mon', title: 'Monday' }, { const: 'tue', title: 'Tuesday' }] },
        },
      },
      required: ['tags'],
    });
    expect(specErrors(schema)).toBeNull();
  });

  it('omits required when every property is optional, and builds an empty form', () => {
    expect(new ElicitationSchemaBuilder().string('a', 'A', (s) => s.optional()).build()).toEqual({
      type: 'object',
      properties: { a: { type: 'string', title: 'A' } },
    });
    const empty = new ElicitationSchemaBuilder().build();
    expect(empty).toEqual({ type: 'object', properties: {} });
    expect(specErrors(empty)).toBeNull();
  });

  it('lets optional(false) take a property back into required', () => {
    const schema = new ElicitationSchemaBuilder().string('a', 'A', (s) => s.optional().optional(false)).build();
    expect(schema.required).toEqual(['a']);
  });

  it('returns a fresh deep copy from every build()', () => {
    const builder = new ElicitationSchemaBuilder().choices('t', 'T', ['a', 'b'], (c) => c.default(['a']));
    const first = builder.build();
    (first.properties.t as { default: string[] }).default.push('b');
    first.required?.push('zzz');
    expect(builder.build()).toEqual({
      type: 'object',
      properties: { t: { type: 'array', title: 'T', default: ['a'], items: { type: 'string', enum: ['a', 'b'] } } },
      required: ['t'],
    });
    builder.bool('later', 'Later');
    expect(Object.keys(first.properties)).toEqual(['t']);
  });

  it('is assignable to the wire ElicitRequestFormParams.requestedSchema', () => {
    const requestedSchema: ElicitRequestFormParams['requestedSchema'] = ElicitationSchemaBuilder.build((s) => s.string('a', 'A'));
    expect(requestedSchema.type).toBe('object');
  });

  it('emits only keywords of one spec branch for every kind', () => {
    const schema = ElicitationSchemaBuilder.build((s) =>
      s
        .string('s', 'S', (p) => p.minLength(1).maxLength(3).default('ab').email().description('d'))
        .integer('i', 'I', (p) => p.minimum(0).maximum(5).default(1))
        .number('n', 'N', (p) => p.minimum(0.5))
        .bool('b', 'B', (p) => p.default(true))
        .choice('c', 'C', ['x'], (p) => p.default('x'))
        .choice('ct', 'CT', [{ value: 'x', title: 'X' }])
        .choices('m', 'M', ['x', 'y'], (p) => p.minItems(0).maxItems(1))
        .choices('mt', 'MT', [{ value: 'x', title: 'X' }]),
    );
    for (const property of Object.values(schema.properties)) expect(unexpectedKeys(property)).toEqual([]);
    expect(specErrors(schema)).toBeNull();
  });

  describe('spec conformance check itself', () => {
    it('rejects a schema the spec does not allow (so the checks above can fail)', () => {
      const nested = { type: 'object', properties: { inner: { type: 'object' } } } as unknown as ElicitationRequestedSchema;
      expect(specErrors(nested)).not.toBeNull();
      const badFormat = { type: 'object', properties: { p: { type: 'string', format: 'phone' } } } as unknown as ElicitationRequestedSchema;
      expect(specErrors(badFormat)).not.toBeNull();
    });
  });

  describe('rejects mistakes when the property is added', () => {
    it('throws on a duplicate property name, naming it', () => {
      const builder = new ElicitationSchemaBuilder().string('email', 'Email');
      expect(() => builder.integer('email', 'Again')).toThrow('"email" is defined twice');
      expect(() => builder.choice('email', 'Again', [])).toThrow('"email" is defined twice');
    });

    it('throws on an empty property name', () => {
      expect(() => new ElicitationSchemaBuilder().string('', 'x')).toThrow(TypeError);
    });

    it('throws when minLength > maxLength, whatever the setter order', () => {
      expect(() => new ElicitationSchemaBuilder().string('n', 'N', (s) => s.maxLength(2).minLength(3))).toThrow(
        /"n": minLength \(3\) is greater than maxLength \(2\)/,
      );
      expect(() => new ElicitationSchemaBuilder().string('n', 'N', (s) => s.minLength(-1))).toThrow(RangeError);
      expect(() => new ElicitationSchemaBuilder().string('n', 'N', (s) => s.maxLength(1.5))).toThrow(RangeError);
    });

    it('throws on a string default outside the length limits', () => {
      expect(() => new ElicitationSchemaBuilder().string('n', 'N', (s) => s.maxLength(2).default('abc'))).toThrow(RangeError);
    });

    it('throws on an unsupported format', () => {
      expect(() =>
        new ElicitationSchemaBuilder().string('n', 'N', (s) => s.format('phone' as never)),
      ).toThrow(/format must be one of email, uri, date, date-time/);
    });

    it('throws on inverted numeric bounds, a default outside them, and fractions for integers', () => {
      expect(() => new ElicitationSchemaBuilder().number('x', 'X', (n) => n.minimum(5).maximum(1))).toThrow(RangeError);
      expect(() => new ElicitationSchemaBuilder().number('x', 'X', (n) => n.maximum(1).default(2))).toThrow(/default 2 is outside/);
      expect(() => new ElicitationSchemaBuilder().integer('x', 'X', (n) => n.default(1.5))).toThrow(/whole number/);
      expect(() => new ElicitationSchemaBuilder().number('x', 'X', (n) => n.minimum(Number.NaN))).toThrow(/finite/);
    });

    it('throws when a single-select default is not one of the options', () => {
      expect(() => new ElicitationSchemaBuilder().choice('plan', 'Plan', ['pro', 'team'], (c) => c.default('free'))).toThrow(
        /"plan": default "free" is not one of the options \(pro, team\)/,
      );
      expect(() =>
        new ElicitationSchemaBuilder().choice('plan', 'Plan', [{ value: 'pro', title: 'Pro' }], (c) => c.default('Pro')),
      ).toThrow(/not one of the options/);
    });

    it('throws when a multi-select default has foreign or repeated values or breaks item limits', () => {
      const b = () => new ElicitationSchemaBuilder();
      expect(() => b().choices('t', 'T', ['a', 'b'], (c) => c.default(['a', 'z']))).toThrow(/not options: z/);
      expect(() => b().choices('t', 'T', ['a', 'b'], (c) => c.default(['a', 'a']))).toThrow(/twice/);
      expect(() => b().choices('t', 'T', ['a', 'b'], (c) => c.minItems(2).default(['a']))).toThrow(RangeError);
      expect(() => b().choices('t', 'T', ['a', 'b'], (c) => c.minItems(2).maxItems(1))).toThrow(/minItems \(2\) is greater than maxItems \(1\)/);
    });

    it('throws on empty, duplicate or malformed options', () => {
      const b = () => new ElicitationSchemaBuilder();
      expect(() => b().choice('p', 'P', [])).toThrow(/at least one option/);
      expect(() => b().choice('p', 'P', ['a', 'a'])).toThrow(/option "a" is listed twice/);
      expect(() => b().choices('p', 'P', [{ value: 'a', title: 'A' }, { value: 'a', title: 'B' }])).toThrow(/listed twice/);
      expect(() => b().choice('p', 'P', [42 as unknown as string])).toThrow(TypeError);
    });

    it('adds nothing when a property is rejected', () => {
      const builder = new ElicitationSchemaBuilder();
      expect(() => builder.choice('p', 'P', ['a'], (c) => c.default('b'))).toThrow();
      expect(builder.build().properties).toEqual({});
    });
  });
});
