import { describe, expect, it } from '@jest/globals';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { asSealKeys, generateEphemeralSecret, parseRequestStateSecret, parseSealKeys, SEAL_KEY_ID_BYTES, SEAL_KEY_ID_LABEL, SealKeys, sealKeyId } from './request-state.key.js';

describe('parseRequestStateSecret', () => {
  const key = randomBytes(32);

  it('accepts a 32-byte key in standard, unpadded and url-safe base64', () => {
    expect(parseRequestStateSecret(key.toString('base64')).equals(key)).toBe(true);
    expect(parseRequestStateSecret(key.toString('base64').replace(/=+$/, '')).equals(key)).toBe(true);
    expect(parseRequestStateSecret(key.toString('base64url')).equals(key)).toBe(true);
    expect(parseRequestStateSecret(`  ${key.toString('base64')}\n`).equals(key)).toBe(true);
  });

  it('names the decoded length of a short key without echoing it', () => {
    const short = randomBytes(16).toString('base64');
    let message = '';
    try {
      parseRequestStateSecret(short);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('mocapi.mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got 16 bytes');
    expect(message).not.toContain(short);
  });

  it('rejects a 33-byte key', () => {
    expect(() => parseRequestStateSecret(randomBytes(33).toString('base64'))).toThrow('got 33 bytes');
  });

  it.each(['not base64 at all!', `${'A'.repeat(43)}*`, 'AAAAA', 'AA=A', 'AAA==='])('rejects %j as not base64', (text) => {
    expect(() => parseRequestStateSecret(text)).toThrow(
      'mocapi.mrtr.secret must be a base64-encoded 256-bit key (32 bytes); the value is not valid base64',
    );
  });

  it('rejects an empty value and uses the given setting name', () => {
    expect(() => parseRequestStateSecret('')).toThrow('got an empty value');
    expect(() => parseRequestStateSecret('AAAA', 'mcp.requestState.secret')).toThrow(
      'mcp.requestState.secret must be a base64-encoded 256-bit key (32 bytes); got 3 bytes',
    );
  });

  it('generates fresh 32-byte ephemeral keys', () => {
    const a = generateEphemeralSecret();
    expect(a).toHaveLength(32);
    expect(a.equals(generateEphemeralSecret())).toBe(false);
  });
});

describe('sealKeyId', () => {
  it('is the first 4 bytes of HMAC-SHA256(key, "nest-mcp/seal-key-id/v1"): the same for the same key, never a piece of the key', () => {
    const key = randomBytes(32);
    const id = sealKeyId(key);
    expect(id).toHaveLength(SEAL_KEY_ID_BYTES);
    expect(id.equals(createHmac('sha256', key).update(SEAL_KEY_ID_LABEL).digest().subarray(0, 4))).toBe(true);
    expect(id.equals(sealKeyId(Buffer.from(key)))).toBe(true);
    expect(id.equals(sealKeyId(randomBytes(32)))).toBe(false);
    expect(key.includes(id)).toBe(false);
  });
});

describe('parseSealKeys', () => {
  const [a, b, c] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const text = (key: Buffer) => key.toString('base64');

  /** The start-up error of these settings: one line, and none of the keys in it. */
  function failure(secret: string | undefined, previous: string[]): string {
    let message = '';
    try {
      parseSealKeys(secret, previous);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe('');
    expect(message).not.toContain('\n');
    for (const key of [secret, ...previous]) if (key) expect(message).not.toContain(key.trim());
    return message;
  }

  it('is undefined without a secret (the caller seals with an ephemeral key)', () => {
    expect(parseSealKeys(undefined)).toBeUndefined();
    expect(parseSealKeys(undefined, [])).toBeUndefined();
  });

  it('holds the current key first, then the previous ones in order, each with its id', () => {
    const keys = parseSealKeys(text(a), [text(b), c.toString('base64url')])!;
    expect(keys.currentSecret.equals(a)).toBe(true);
    expect(keys.current.id.equals(sealKeyId(a))).toBe(true);
    expect(keys.previous.map((key) => key.id.toString('hex'))).toEqual([sealKeyId(b).toString('hex'), sealKeyId(c).toString('hex')]);
    expect(keys.all.map((key) => key.id)).toEqual([keys.current.id, ...keys.previous.map((key) => key.id)]);
  });

  it('describes itself by key ids, never by keys', () => {
    const keys = parseSealKeys(text(a), [text(b)])!;
    const line = keys.describe();
    expect(line).toBe(
      `mocapi.mrtr.secret: sealing with key id ${sealKeyId(a).toString('hex')}; also opening what previous key ids ${sealKeyId(b).toString('hex')} sealed (mocapi.mrtr.previous-secrets)`,
    );
    expect(line).not.toContain(text(a));
    expect(parseSealKeys(text(a))!.describe()).toBe(`mocapi.mrtr.secret: sealing with key id ${sealKeyId(a).toString('hex')}`);
  });

  it('refuses a blank secret rather than taking it for none (no ephemeral key for a deployment whose key went missing)', () => {
    for (const blank of ['', ' ', '\t\n']) {
      expect(() => parseSealKeys(blank)).toThrow(new Error('mocapi.mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got an empty value'));
    }
  });

  it('refuses previous keys without a current one', () => {
    expect(failure(undefined, [text(a)])).toBe(
      'mocapi.mrtr.previous-secrets is set but mocapi.mrtr.secret is not: set the current key too (previous keys only open what they sealed before)',
    );
  });

  it('names the malformed entry by its position', () => {
    expect(failure(text(a), [text(b), 'not base64!'])).toBe(
      'mocapi.mrtr.previous-secrets entry 2 must be a base64-encoded 256-bit key (32 bytes); the value is not valid base64',
    );
    expect(failure(text(a), [randomBytes(16).toString('base64')])).toBe('mocapi.mrtr.previous-secrets entry 1 must be a base64-encoded 256-bit key (32 bytes); got 16 bytes');
    expect(failure(text(a), [text(b), '', text(c)])).toBe('mocapi.mrtr.previous-secrets entry 2 must be a base64-encoded 256-bit key (32 bytes); got an empty value');
    expect(failure('AAAA', [text(b)])).toBe('mocapi.mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got 3 bytes');
  });

  it('refuses a previous key that is the current one, or repeats another previous key (in any spelling)', () => {
    expect(failure(text(a), [text(b), a.toString('base64url')])).toBe('mocapi.mrtr.previous-secrets entry 2 is the same key as mocapi.mrtr.secret: a key is either current or previous, not both');
    expect(failure(text(a), [text(b), text(c), ` ${b.toString('base64').replace(/=+$/, '')}`])).toBe(
      'mocapi.mrtr.previous-secrets entry 3 is the same key as mocapi.mrtr.previous-secrets entry 1: list each previous key once',
    );
  });

  it('refuses two different keys of the same id (found by a birthday search, ids 952a5f26)', () => {
    const [one, two] = [62540, 157049].map((n) => createHash('sha256').update(`nest-mcp key-id collision ${n}`).digest());
    expect(one.equals(two)).toBe(false);
    expect([sealKeyId(one).toString('hex'), sealKeyId(two).toString('hex')]).toEqual(['952a5f26', '952a5f26']);
    expect(failure(text(one), [text(a), text(two)])).toBe('mocapi.mrtr.previous-secrets entry 2 has the same key id as mocapi.mrtr.secret (a 1-in-4-billion chance): generate another key');
    expect(failure(text(a), [text(one), text(two)])).toBe(
      'mocapi.mrtr.previous-secrets entry 2 has the same key id as mocapi.mrtr.previous-secrets entry 1 (a 1-in-4-billion chance): generate another key',
    );
  });

  it('SealKeys refuses a key of the wrong length given as bytes', () => {
    expect(() => new SealKeys(a, [randomBytes(31)])).toThrow('mocapi.mrtr.previous-secrets entry 1 must be a 32-byte key');
    expect(() => asSealKeys(randomBytes(16), 'SomeCodec')).toThrow('SomeCodec needs a 32-byte secret');
    const keys = new SealKeys(a);
    expect(asSealKeys(keys, 'SomeCodec')).toBe(keys);
    expect(asSealKeys(a, 'SomeCodec').current.id.equals(keys.current.id)).toBe(true);
  });
});
