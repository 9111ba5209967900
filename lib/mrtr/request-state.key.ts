import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** AES-256 wants exactly this many key bytes. */
export const REQUEST_STATE_KEY_BYTES = 32;
/** Bytes of the key id every sealed value carries, naming the key that sealed it. */
export const SEAL_KEY_ID_BYTES = 4;
/** What a key id is the HMAC-SHA256 of, keyed by the key: the id names a key and reveals none of it. */
export const SEAL_KEY_ID_LABEL = 'nest-mcp/seal-key-id/v1';
/** The settings that hold the sealing keys, as start-up errors name them. */
export const SECRET_SETTING = 'mocapi.mrtr.secret';
export const PREVIOUS_SECRETS_SETTING = 'mocapi.mrtr.previous-secrets';

// Standard (+/) or url-safe (-_) alphabet, optional padding. Buffer.from() alone would silently
// skip bad characters, so a typo could yield a different (weaker) key instead of an error.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes the configured requestState secret. Messages name the setting and the decoded
 * length, never the secret itself (it would end up in logs).
 */
export function parseRequestStateSecret(base64: string, settingName = SECRET_SETTING): Buffer {
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

/** The id of `key` in sealed values: the first SEAL_KEY_ID_BYTES of HMAC-SHA256(key, SEAL_KEY_ID_LABEL). */
export function sealKeyId(key: Buffer): Buffer {
  return createHmac('sha256', key).update(SEAL_KEY_ID_LABEL, 'utf8').digest().subarray(0, SEAL_KEY_ID_BYTES);
}

/** One sealing key and its id. */
export interface SealKey {
  /** SEAL_KEY_ID_BYTES bytes, as sealed values carry it. */
  readonly id: Buffer;
  readonly key: KeyObject;
}

/**
 * The keys that seal server state handed to clients (requestState tokens, 2025 session ids): the
 * current key seals, it and the previous keys open. Each sealed value names its key by id, so opening
 * looks one key up, whatever the number of previous keys. Refuses two entries of the same key, and (a
 * 1-in-4-billion chance) two keys of the same id, naming the settings and positions, never a key.
 */
export class SealKeys {
  readonly current: SealKey;
  readonly previous: readonly SealKey[];
  /** The current key's bytes. */
  readonly currentSecret: Buffer;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    const named = [{ name: SECRET_SETTING, secret: current }, ...previous.map((secret, n) => ({ name: `${PREVIOUS_SECRETS_SETTING} entry ${n + 1}`, secret }))];
    const byId = new Map<number, string>();
    const keys = named.map(({ name, secret }, n): SealKey => {
      if (!Buffer.isBuffer(secret) || secret.length !== REQUEST_STATE_KEY_BYTES) throw new Error(`${name} must be a ${REQUEST_STATE_KEY_BYTES}-byte key`);
      const same = named.slice(0, n).find((earlier) => earlier.secret.equals(secret));
      if (same) throw new Error(`${name} is the same key as ${same.name}: ${same.name === SECRET_SETTING ? 'a key is either current or previous, not both' : 'list each previous key once'}`);
      const id = sealKeyId(secret);
      const clash = byId.get(id.readUInt32BE(0));
      if (clash) throw new Error(`${name} has the same key id as ${clash} (a 1-in-4-billion chance): generate another key`);
      byId.set(id.readUInt32BE(0), name);
      return { id, key: createSecretKey(secret) };
    });
    [this.current, ...this.previous] = keys;
    this.currentSecret = Buffer.from(current);
  }

  /** Every key, the current one first. */
  get all(): readonly SealKey[] {
    return [this.current, ...this.previous];
  }

  /** For the start-up log: the key ids (hex), never the keys. */
  describe(): string {
    const previous = this.previous.map((key) => key.id.toString('hex')).join(', ');
    return `${SECRET_SETTING}: sealing with key id ${this.current.id.toString('hex')}` + (previous ? `; also opening what previous key ids ${previous} sealed (${PREVIOUS_SECRETS_SETTING})` : '');
  }
}

/**
 * The configured keys: `secret` current, `previous` (entries in order) previous; undefined when no
 * secret is configured (the caller then seals with an ephemeral key). A blank secret is an error, not
 * none: a deployment whose key went missing must not run with a key no other instance has. Start-up
 * errors are one line, naming the setting and the entry's position.
 */
export function parseSealKeys(secret: string | undefined, previous: readonly string[] = []): SealKeys | undefined {
  if (secret === undefined) {
    if (previous.length > 0) {
      throw new Error(`${PREVIOUS_SECRETS_SETTING} is set but ${SECRET_SETTING} is not: set the current key too (previous keys only open what they sealed before)`);
    }
    return undefined;
  }
  const current = parseRequestStateSecret(secret);
  return new SealKeys(current, previous.map((entry, n) => parseRequestStateSecret(entry, `${PREVIOUS_SECRETS_SETTING} entry ${n + 1}`)));
}

/** `secret` as a key set: a bare key is the current one, with no previous keys. */
export function asSealKeys(secret: Buffer | SealKeys, owner: string): SealKeys {
  if (secret instanceof SealKeys) return secret;
  if (!Buffer.isBuffer(secret) || secret.length !== REQUEST_STATE_KEY_BYTES) throw new Error(`${owner} needs a ${REQUEST_STATE_KEY_BYTES}-byte secret`);
  return new SealKeys(secret);
}
