import { describe, expect, it } from '@jest/globals';
import { canonicalJson, digestArguments, fingerprint } from './fingerprint.util.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('follows JSON.stringify for undefined, non-finite numbers, toJSON and strings', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, () => 1], c: NaN, d: new Date(0), e: 'q"\n' })).toBe(
      '{"b":[null,null],"c":null,"d":"1970-01-01T00:00:00.000Z","e":"q\\"\\n"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson([true, false, 1.5])).toBe('[true,false,1.5]');
  });

  it('throws on cycles but not on shared references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});

describe('fingerprint', () => {
  it('is 22 base64url chars and ignores property order', () => {
    const a = fingerprint({ message: 'Plan?', requestedSchema: { type: 'object', properties: { plan: { type: 'string' } } } });
    const b = fingerprint({ requestedSchema: { properties: { plan: { type: 'string' } }, type: 'object' }, message: 'Plan?' });
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).toBe(b);
  });

  it('changes when the question changes', () => {
    expect(fingerprint({ message: 'Plan?' })).not.toBe(fingerprint({ message: 'Plan!' }));
    expect(fingerprint([1, 2])).not.toBe(fingerprint([2, 1]));
  });
});

describe('digestArguments', () => {
  it('treats missing arguments as {}', () => {
    expect(digestArguments(undefined)).toBe(digestArguments({}));
    expect(digestArguments({ a: undefined })).toBe(digestArguments({}));
  });

  it('is a full sha256 in base64url, independent of key order', () => {
    expect(digestArguments({})).toBe('RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o');
    expect(digestArguments({ a: 1, b: 2 })).toBe(digestArguments({ b: 2, a: 1 }));
    expect(digestArguments({ a: 1 })).not.toBe(digestArguments({ a: 2 }));
  });
});
