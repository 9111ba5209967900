import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject } from '../protocol/wire.types.js';
import { SEAL_KEY_ID_BYTES, type SealKeys } from './request-state.key.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Format byte, then the id of the key that sealed. */
const PREFIX_BYTES = 1 + SEAL_KEY_ID_BYTES;
const HEADER_BYTES = PREFIX_BYTES + NONCE_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Bytes a sealed token adds to its plaintext (format byte, key id, nonce, tag), before base64url. */
export const SEALED_OVERHEAD_BYTES = HEADER_BYTES + TAG_BYTES;

/** Why a token did not open. */
export type SealedBoxProblem = 'not-base64url' | 'truncated' | 'format' | 'unknown-key' | 'unverifiable';

/** One key as this box uses it: the token prefix it writes, and the AAD that binds that prefix. */
interface BoxKey {
  key: KeyObject;
  prefix: Buffer;
  aad: Buffer;
}

/**
 * AES-256-GCM sealing of server state handed to clients (the `requestState` token, the 2025 session
 * id): `base64url(format byte ‖ key id ‖ nonce ‖ ciphertext ‖ tag)`, with AAD `purpose ‖ format byte ‖
 * key id`, so a token of one kind never opens as another and its key id cannot be swapped. Seals with
 * the current key; opens with the one key the token names (current or previous), unknown ids refused
 * before any decryption. base64url keeps tokens visible ASCII.
 */
export class SealedBox {
  private readonly sealing: BoxKey;
  private readonly opening = new Map<number, BoxKey>();

  constructor(
    keys: SealKeys,
    private readonly format: number,
    purpose: string,
  ) {
    const boxKey = (id: Buffer, key: KeyObject): BoxKey => {
      const prefix = Buffer.concat([Buffer.from([format]), id]);
      return { key, prefix, aad: Buffer.concat([Buffer.from(purpose, 'utf8'), prefix]) };
    };
    for (const { id, key } of keys.all) this.opening.set(id.readUInt32BE(0), boxKey(id, key));
    this.sealing = this.opening.get(keys.current.id.readUInt32BE(0))!;
  }

  seal(plaintext: Buffer): string {
    const { key, prefix, aad } = this.sealing;
    const token = Buffer.allocUnsafe(HEADER_BYTES + plaintext.length + TAG_BYTES);
    prefix.copy(token, 0);
    const nonce = token.subarray(PREFIX_BYTES, HEADER_BYTES);
    randomFillSync(nonce);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    cipher.update(plaintext).copy(token, HEADER_BYTES);
    cipher.final();
    cipher.getAuthTag().copy(token, HEADER_BYTES + plaintext.length);
    return token.toString('base64url');
  }

  /** The plaintext of a token sealed with one of the keys, or what is wrong with it. */
  open(token: string): { plaintext: Buffer } | { problem: SealedBoxProblem } {
    if (!BASE64URL.test(token)) return { problem: 'not-base64url' };
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length < HEADER_BYTES + TAG_BYTES) return { problem: 'truncated' };
    if (bytes.toString('base64url') !== token) return { problem: 'unverifiable' };
    if (bytes[0] !== this.format) return { problem: 'format' };
    const boxKey = this.opening.get(bytes.readUInt32BE(1));
    if (!boxKey) return { problem: 'unknown-key' };
    try {
      const decipher = createDecipheriv('aes-256-gcm', boxKey.key, bytes.subarray(PREFIX_BYTES, HEADER_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(boxKey.aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plaintext = decipher.update(bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES));
      decipher.final();
      return { plaintext };
    } catch {
      return { problem: 'unverifiable' };
    }
  }
}

/** The JSON object an opened token holds, or undefined when its plaintext is not one. */
export function parseSealedObject(plaintext: Buffer): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(plaintext.toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
