import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { generateEphemeralSecret, parseRequestStateSecret } from './request-state.key.js';

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
