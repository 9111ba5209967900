import { randomBytes } from 'node:crypto';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { asSealKeys, type SealKeys } from './request-state.key.js';
import { parseSealedObject, SEALED_OVERHEAD_BYTES, SealedBox } from './sealed-box.js';
import { isPlainObject } from '../protocol/json-value.js';

/** One elicit()/requestInputs() position that got its answers. */
export interface AnsweredRound {
  /** Fingerprint of the questions asked at that position. */
  fingerprint: string;
  /** Input-request key -> the client's InputResponse. */
  responses: Record<string, unknown>;
}

export interface RequestStatePayload {
  /** 'tools/call' | 'prompts/get' | 'resources/read' */
  method: string;
  /** Tool name, prompt name or resource URI. */
  target: string;
  /** digestArguments(original arguments). */
  argsDigest: string;
  /** Answered positions, in order. */
  rounds: AnsweredRound[];
  /** The questions outstanding in this round. */
  pending?: { fingerprint: string; keys: string[] };
  /**
   * The highest progress value the client was sent in the call's rounds so far: what a replayed run
   * reports up to it is not sent again. Absent when none was sent (and in tokens sealed before the field).
   */
  progressShown?: number;
  /** Epoch ms, set by encode(). */
  issuedAt: number;
  /** Unique per token, set by encode(): the server accepts each token once, by this id. */
  id: string;
}

export interface RequestStateCodecOptions {
  /** Longest token decode() will look at, in characters (default 64 KiB). */
  maxTokenLength?: number;
}

/**
 * First byte of every token; bump together with the AAD when the token or plaintext layout changes in a
 * way a server of the other version would misread. An optional plaintext key needs no bump: a server
 * without it ignores the key, and a token without it reads as if the key were absent.
 * 3: the key id follows it (version 2 tokens, without one, are refused as an unsupported format).
 */
export const REQUEST_STATE_VERSION = 3;
/** Binds ciphertexts to this purpose and layout (then the format byte and key id), so a key reused elsewhere cannot be fed in. */
export const REQUEST_STATE_AAD = 'nest-mcp/request-state/v3';

const DEFAULT_MAX_TOKEN_LENGTH = 64 * 1024;
const MAX_CLOCK_SKEW_MS = 60_000;
const RESTART = 'start the call over without requestState';
// 128 random bits: ids never repeat in practice.
const ID_BYTES = 16;

/** Compact plaintext: short keys, rounds and pending as tuples; `h` is progressShown. */
interface WirePayload {
  m: string;
  t: string;
  a: string;
  r: Array<[string, Record<string, unknown>]>;
  p?: [string, string[]];
  h?: number;
  i: number;
  s: string;
}

/**
 * Seals MRTR state into the opaque `requestState` token (AES-256-GCM, the current key) and opens it
 * again (with the key the token names: current or previous). The client can neither read nor alter
 * it; decode() turns every kind of bad token into InvalidParamsError (-32602) so a forged token never
 * surfaces as an internal error.
 */
export class RequestStateCodec {
  private readonly box: SealedBox;
  private readonly maxTokenLength: number;
  // Largest plaintext whose token still fits maxTokenLength.
  private readonly maxPlaintextBytes: number;

  /** `keys`: a key set, or one bare 32-byte key (current, no previous keys). */
  constructor(
    keys: SealKeys | Buffer,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
    options: RequestStateCodecOptions = {},
  ) {
    const sealKeys = asSealKeys(keys, 'RequestStateCodec');
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new Error(`RequestStateCodec needs a positive TTL in milliseconds; got ${ttlMs}`);
    }
    this.maxTokenLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
    if (!Number.isSafeInteger(this.maxTokenLength) || this.maxTokenLength <= 0) {
      throw new Error(`RequestStateCodec maxTokenLength must be a positive integer; got ${this.maxTokenLength}`);
    }
    this.maxPlaintextBytes = Math.floor((this.maxTokenLength * 3) / 4) - SEALED_OVERHEAD_BYTES;
    this.box = new SealedBox(sealKeys, REQUEST_STATE_VERSION, REQUEST_STATE_AAD);
  }

  /** Milliseconds until `payload` expires (at least 1): how long its one-time claim must be kept. */
  remainingTtlMs(payload: RequestStatePayload): number {
    return Math.max(1, payload.issuedAt + this.ttlMs - this.clock());
  }

  /**
   * Stamps issuedAt and a fresh id, and seals the payload. Throws InvalidParamsError when the state (mostly the
   * client's own answers) would not fit maxTokenLength, rather than issuing a token decode() refuses.
   */
  encode(payload: Omit<RequestStatePayload, 'issuedAt' | 'id'>): string {
    const wire: WirePayload = {
      m: payload.method,
      t: payload.target,
      a: payload.argsDigest,
      r: payload.rounds.map((round) => [round.fingerprint, round.responses]),
      i: this.clock(),
      s: randomBytes(ID_BYTES).toString('base64url'),
    };
    if (payload.pending !== undefined) wire.p = [payload.pending.fingerprint, payload.pending.keys];
    if (payload.progressShown !== undefined) wire.h = payload.progressShown;
    const plaintext = Buffer.from(JSON.stringify(wire), 'utf8');
    if (plaintext.length > this.maxPlaintextBytes) {
      throw new InvalidParamsError(
        `The input responses are too large to carry in requestState (limit ${this.maxTokenLength} characters); send smaller answers`,
      );
    }
    return this.box.seal(plaintext);
  }

  /** Opens a token from the client. Every failure is InvalidParamsError (-32602). */
  decode(token: unknown): RequestStatePayload {
    if (typeof token !== 'string' || token.length === 0) {
      throw reject('requestState must be a non-empty string');
    }
    // Before any decoding work, so an oversized token costs nothing.
    if (token.length > this.maxTokenLength) {
      throw reject(`requestState is longer than ${this.maxTokenLength} characters`);
    }
    const opened = this.box.open(token);
    if ('problem' in opened) {
      if (opened.problem === 'not-base64url') throw reject('requestState is not base64url text');
      if (opened.problem === 'truncated') throw reject('requestState is truncated');
      if (opened.problem === 'format') throw reject('requestState has an unsupported format version');
      // 'unknown-key' too: sealed with a key this server does not hold (another deployment's, or one retired).
      throw unverifiable();
    }
    const plaintext = opened.plaintext;
    const payload = toPayload(plaintext);
    if (payload === undefined) {
      throw reject('requestState does not hold the expected state');
    }
    const now = this.clock();
    if (payload.issuedAt + this.ttlMs < now) {
      throw reject('requestState has expired');
    }
    if (payload.issuedAt > now + MAX_CLOCK_SKEW_MS) {
      throw reject('requestState was issued in the future (check the server clocks)');
    }
    return payload;
  }
}

function reject(problem: string): InvalidParamsError {
  return new InvalidParamsError(`${problem}; ${RESTART}`);
}

function unverifiable(): InvalidParamsError {
  return reject('requestState failed verification (it was modified or issued with a different server key)');
}

/** Validates the decrypted layout; undefined when anything is off. */
function toPayload(plaintext: Buffer): RequestStatePayload | undefined {
  const wire = parseSealedObject(plaintext);
  if (!wire) return undefined;
  const { m, t, a, r, p, h, i, s } = wire;
  if (typeof m !== 'string' || typeof t !== 'string' || typeof a !== 'string' || typeof s !== 'string') return undefined;
  if (typeof i !== 'number' || !Number.isFinite(i) || !Array.isArray(r)) return undefined;
  const rounds: AnsweredRound[] = new Array(r.length);
  for (let n = 0; n < r.length; n++) {
    const entry: unknown = r[n];
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !isPlainObject(entry[1])) {
      return undefined;
    }
    rounds[n] = { fingerprint: entry[0], responses: entry[1] };
  }
  const payload: RequestStatePayload = { method: m, target: t, argsDigest: a, rounds, issuedAt: i, id: s };
  if (p !== undefined) {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || !Array.isArray(p[1])) return undefined;
    const keys: unknown[] = p[1];
    if (!keys.every((key) => typeof key === 'string')) return undefined;
    payload.pending = { fingerprint: p[0], keys: keys as string[] };
  }
  if (h !== undefined) {
    if (typeof h !== 'number' || !Number.isFinite(h)) return undefined;
    payload.progressShown = h;
  }
  return payload;
}

