import { createCipheriv, createDecipheriv, createSecretKey, randomFillSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject } from '../protocol/wire.types.js';
import { REQUEST_STATE_KEY_BYTES } from './request-state.key.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + NONCE_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Bytes a sealed token adds to its plaintext (format byte, nonce, tag), before base64url. */
export const SEALED_OVERHEAD_BYTES = HEADER_BYTES + TAG_BYTES;

/** Why a token did not open. */
export type SealedBoxProblem = 'not-base64url' | 'truncated' | 'format' | 'unverifiable';

/**
 * AES-256-GCM sealing of server state handed to clients (the `requestState` token, the 2025 session
 * id): `base64url(format byte ‖ nonce ‖ ciphertext ‖ tag)`, bound by its AAD to one purpose and layout,
 * so a token of one kind never opens as another. base64url keeps tokens visible ASCII.
 */
export class SealedBox {
  private readonly key: KeyObject;
  private readonly aad: Buffer;

  constructor(
    secret: Buffer,
    private readonly format: number,
    aad: string,
  ) {
    if (!Buffer.isBuffer(secret) || secret.length !== REQUEST_STATE_KEY_BYTES) {
      throw new Error(`SealedBox needs a ${REQUEST_STATE_KEY_BYTES}-byte secret`);
    }
    this.key = createSecretKey(secret);
    this.aad = Buffer.from(aad, 'utf8');
  }

  seal(plaintext: Buffer): string {
    const token = Buffer.allocUnsafe(HEADER_BYTES + plaintext.length + TAG_BYTES);
    token[0] = this.format;
    const nonce = token.subarray(1, HEADER_BYTES);
    randomFillSync(nonce);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad);
    cipher.update(plaintext).copy(token, HEADER_BYTES);
    cipher.final();
    cipher.getAuthTag().copy(token, HEADER_BYTES + plaintext.length);
    return token.toString('base64url');
  }

  /** The plaintext of a token this box sealed, or what is wrong with it. */
  open(token: string): { plaintext: Buffer } | { problem: SealedBoxProblem } {
    if (!BASE64URL.test(token)) return { problem: 'not-base64url' };
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length < HEADER_BYTES + TAG_BYTES) return { problem: 'truncated' };
    if (bytes.toString('base64url') !== token) return { problem: 'unverifiable' };
    if (bytes[0] !== this.format) return { problem: 'format' };
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(1, HEADER_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(this.aad);
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
