import { randomBytes } from 'node:crypto';

/** AES-256 wants exactly this many key bytes. */
export const REQUEST_STATE_KEY_BYTES = 32;

// Standard (+/) or url-safe (-_) alphabet, optional padding. Buffer.from() alone would silently
// skip bad characters, so a typo could yield a different (weaker) key instead of an error.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes the configured requestState secret. Messages name the setting and the decoded
 * length, never the secret itself (it would end up in logs).
 */
export function parseRequestStateSecret(base64: string, settingName = 'mocapi.mrtr.secret'): Buffer {
  const expectation = `${settingName} must be a base64-encoded 256-bit key (${REQUEST_STATE_KEY_BYTES} bytes)`;
  if (typeof base64 !== 'string' || base64.trim() === '') {
    throw new Error(`${expectation}; got an empty value`);
  }
  const text = base64.trim();
  const unpadded = text.replace(/=+$/, '');
  const paddingOk = unpadded.length === text.length || text.length % 4 === 0;
  if (!BASE64.test(text) || !paddingOk || unpadded.length % 4 === 1) {
    throw new Error(`${expectation}; the value is not valid base64`);
  }
  const key = Buffer.from(unpadded.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
  if (key.length !== REQUEST_STATE_KEY_BYTES) {
    throw new Error(`${expectation}; got ${key.length} bytes`);
  }
  return key;
}

/** A random key for a single process: tokens stop verifying after a restart or on another instance. */
export function generateEphemeralSecret(): Buffer {
  return randomBytes(REQUEST_STATE_KEY_BYTES);
}
