import { describe, expect, it } from '@jest/globals';
import { ElicitationSchemaBuilder } from './elicitation-schema.builder.js';
import { validateElicitResponse } from './elicit-response.validator.js';

const schema = ElicitationSchemaBuilder.build((s) =>
  s
    .string('name', 'Name', (p) => p.minLength(2))
    .string('email', 'Email', (p) => p.email())
    .string('site', 'Site', (p) => p.uri().optional())
    .string('day', 'Day', (p) => p.date().optional())
    .string('at', 'At', (p) => p.dateTime().optional())
    .integer('age', 'Age', (p) => p.minimum(0).maximum(150).optional())
    .number('ratio', 'Ratio', (p) => p.maximum(1).optional())
    .bool('ok', 'OK')
    .choice('plan', 'Plan', ['pro', 'team'], (p) => p.optional())
    .choice('tier', 'Tier', [{ value: 'gold', title: 'Gold' }], (p) => p.optional())
    .choices('tags', 'Tags', ['a', 'b'], (p) => p.maxItems(1).optional())
    .choices('days', 'Days', [{ value: 'mon', title: 'Monday' }], (p) => p.optional()),
);
const valid = { name: 'Ada', email: 'ada@example.com', ok: true };

function reasonOf(response: unknown, requestedSchema = schema): string {
  const result = validateElicitResponse(response, requestedSchema);
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.value)}`);
  return result.reason;
}

describe('validateElicitResponse', () => {
  it('accepts a valid answer and returns it', () => {
    const content = {
      ...valid,
      site: 'https://example.com/x',
      day: '2026-07-28',
      at: '2026-07-28T12:00:00Z',
      age: 36,
      ratio: 0.5,
      plan: 'team',
      tier: 'gold',
      tags: ['b'],
      days: ['mon'],
    };
    expect(validateElicitResponse({ action: 'accept', content }, schema)).toEqual({ ok: true, value: { action: 'accept', content } });
  });

  it('accepts 3.0 for an integer field', () => {
    expect(validateElicitResponse({ action: 'accept', content: { ...valid, age: 3.0 } }, schema).ok).toBe(true);
  });

  it('returns decline and cancel without content and without checking it', () => {
    expect(validateElicitResponse({ action: 'decline' }, schema)).toEqual({ ok: true, value: { action: 'decline' } });
    expect(validateElicitResponse({ action: 'cancel', content: { name: 1 }, _meta: { a: 1 } }, schema)).toEqual({
      ok: true,
      value: { action: 'cancel', _meta: { a: 1 } },
    });
  });

  it('rejects malformed responses', () => {
    expect(reasonOf(null)).toBe('the elicitation response must be an object');
    expect(reasonOf([])).toBe('the elicitation response must be an object');
    expect(reasonOf({})).toMatch(/action must be one of accept, decline, cancel/);
    expect(reasonOf({ action: 'ACCEPT' })).toMatch(/got "ACCEPT"/);
    expect(reasonOf({ action: 'accept', content: [] })).toBe('content must be an object');
    expect(reasonOf({ action: 'accept', content: { ...valid, nested: { a: 1 } } })).toMatch(/content\.nested must be a string/);
    expect(reasonOf({ action: 'accept', content: { ...valid, list: [1] } })).toMatch(/content\.list/);
    expect(reasonOf({ action: 'accept', content: valid, _meta: 'x' })).toBe('_meta must be an object');
  });

  it('rejects accepted content that breaks the requested schema, naming the field', () => {
    expect(reasonOf({ action: 'accept', content: { email: 'ada@example.com', ok: true } })).toMatch(/must have required property 'name'/);
    expect(reasonOf({ action: 'accept', content: { ...valid, email: 'not-an-email' } })).toMatch(/content\.email must match format "email"/);
    expect(reasonOf({ action: 'accept', content: { ...valid, site: 'no scheme' } })).toMatch(/content\.site must match format "uri"/);
    expect(reasonOf({ action: 'accept', content: { ...valid, day: '2026-13-45' } })).toMatch(/content\.day/);
    expect(reasonOf({ action: 'accept', content: { ...valid, at: 'yesterday' } })).toMatch(/content\.at/);
    expect(reasonOf({ action: 'accept', content: { ...valid, name: 'A' } })).toMatch(/content\.name must NOT have fewer than 2 characters/);
    expect(reasonOf({ action: 'accept', content: { ...valid, age: 2.5 } })).toMatch(/content\.age must be integer/);
    expect(reasonOf({ action: 'accept', content: { ...valid, age: -1 } })).toMatch(/content\.age must be >= 0/);
    expect(reasonOf({ action: 'accept', content: { ...valid, ok: 'yes' } })).toMatch(/content\.ok must be boolean/);
    expect(reasonOf({ action: 'accept', content: { ...valid, plan: 'free' } })).toMatch(/content\.plan/);
    expect(reasonOf({ action: 'accept', content: { ...valid, tier: 'silver' } })).toMatch(/content\.tier/);
    expect(reasonOf({ action: 'accept', content: { ...valid, tags: ['c'] } })).toMatch(/content\.tags\.0/);
    expect(reasonOf({ action: 'accept', content: { ...valid, tags: ['a', 'b'] } })).toMatch(/content\.tags must NOT have more than 1 items/);
    expect(reasonOf({ action: 'accept', content: { ...valid, days: ['tue'] } })).toMatch(/content\.days/);
  });

  it('reports every problem at once', () => {
    const reason = reasonOf({ action: 'accept', content: { email: 'x', ok: 1 } });
    expect(reason).toMatch(/'name'/);
    expect(reason).toMatch(/content\.email/);
    expect(reason).toMatch(/content\.ok/);
  });

  it('treats an accept without content as empty content', () => {
    expect(reasonOf({ action: 'accept' })).toMatch(/required property 'name'/);
    const optionalOnly = ElicitationSchemaBuilder.build((s) => s.string('note', 'Note', (p) => p.optional()));
    expect(validateElicitResponse({ action: 'accept' }, optionalOnly)).toEqual({ ok: true, value: { action: 'accept', content: {} } });
  });

  it('reuses a compiled validator for an equal schema built again (replay) and ignores $schema', () => {
    const again = ElicitationSchemaBuilder.build((s) => s.bool('ok', 'OK'));
    const withDialect = { $schema: 'http://json-schema.org/draft-07/schema#', ...again };
    expect(validateElicitResponse({ action: 'accept', content: { ok: true } }, withDialect).ok).toBe(true);
    expect(reasonOf({ action: 'accept', content: { ok: 'no' } }, withDialect)).toMatch(/content\.ok must be boolean/);
    expect(validateElicitResponse({ action: 'accept', content: { ok: false } }, ElicitationSchemaBuilder.build((s) => s.bool('ok', 'OK'))).ok).toBe(true);
  });

  it('keeps distinct validators for schemas that differ', () => {
    const a = ElicitationSchemaBuilder.build((s) => s.integer('n', 'N', (p) => p.maximum(1)));
    const b = ElicitationSchemaBuilder.build((s) => s.integer('n', 'N', (p) => p.maximum(10)));
    expect(validateElicitResponse({ action: 'accept', content: { n: 5 } }, a).ok).toBe(false);
    expect(validateElicitResponse({ action: 'accept', content: { n: 5 } }, b).ok).toBe(true);
  });

  it('throws when the requested schema itself is broken (a server bug, not a client error)', () => {
    const broken = { type: 'object', properties: { n: { type: 'no-such-type' } } } as never;
    expect(() => validateElicitResponse({ action: 'accept', content: {} }, broken)).toThrow();
  });
});
