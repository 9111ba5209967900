import { describe, expect, it } from '@jest/globals';
import { createCipheriv, randomBytes } from 'node:crypto';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { REQUEST_STATE_AAD, REQUEST_STATE_VERSION, RequestStateCodec } from './request-state.codec.js';
import { SealKeys, sealKeyId } from './request-state.key.js';
import type { RequestStatePayload } from './request-state.codec.js';

const RESTART = '; start the call over without requestState';
const TTL = 300_000;

function setup(options?: { maxTokenLength?: number }) {
  const clock = { now: 1_750_000_000_000 };
  const secret = randomBytes(32);
  const codec = new RequestStateCodec(secret, TTL, () => clock.now, options);
  return { clock, secret, codec };
}

const payload: Omit<RequestStatePayload, 'issuedAt' | 'id'> = {
  method: 'tools/call',
  target: 'checkout',
  argsDigest: 'RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o',
  rounds: [
    { fingerprint: 'fp-plan', responses: { plan: { action: 'accept', content: { plan: 'pro', seats: 3 } } } },
    { fingerprint: 'fp-confirm', responses: { confirm: { action: 'decline' } } },
  ],
  pending: { fingerprint: 'fp-card', keys: ['card', 'roots'] },
};

/** Asserts the call fails with -32602 and exactly this message (never a plain Error). */
function expectRejected(call: () => unknown, problem: string): void {
  let caught: unknown;
  try {
    call();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidParamsError);
  const error = caught as InvalidParamsError;
  expect(error.code).toBe(-32602);
  expect(error.message).toBe(problem + RESTART);
  expect(error.toJsonRpc()).toEqual({ code: -32602, message: problem + RESTART });
}

/**
 * Builds a token in the documented layout, to reach the checks behind authentication:
 * `format ‖ key id ‖ nonce ‖ ciphertext ‖ tag`, AAD `purpose ‖ format ‖ key id`.
 */
function seal(secret: Buffer, plaintext: string, version = REQUEST_STATE_VERSION): string {
  const nonce = randomBytes(12);
  const prefix = Buffer.concat([Buffer.from([version]), sealKeyId(secret)]);
  const cipher = createCipheriv('aes-256-gcm', secret, nonce);
  cipher.setAAD(Buffer.concat([Buffer.from(REQUEST_STATE_AAD), prefix]));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([prefix, nonce, body, cipher.getAuthTag()]).toString('base64url');
}

/** A token of format 2, the layout before key ids: `2 ‖ nonce ‖ ciphertext ‖ tag`, AAD `nest-mcp/request-state/v2`. */
function sealFormat2(secret: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, nonce);
  cipher.setAAD(Buffer.from('nest-mcp/request-state/v2'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([2]), nonce, body, cipher.getAuthTag()]).toString('base64url');
}

const VERIFICATION = 'requestState failed verification (it was modified or issued with a different server key)';

describe('RequestStateCodec', () => {
  it('round-trips a payload and stamps issuedAt from the clock and a random id', () => {
    const { codec, clock } = setup();
    const token = codec.encode(payload);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(token)).toEqual({ ...payload, issuedAt: clock.now, id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
  });

  it('gives every token its own id, even for the same state at the same instant', () => {
    const { codec } = setup();
    const ids = new Set(Array.from({ length: 50 }, () => codec.decode(codec.encode(payload)).id));
    expect(ids.size).toBe(50);
  });

  it('tells how long a token has left (what its one-time claim must outlive), at least 1 ms', () => {
    const { codec, clock } = setup();
    const decoded = codec.decode(codec.encode(payload));
    expect(codec.remainingTtlMs(decoded)).toBe(TTL);
    clock.now += 1_000;
    expect(codec.remainingTtlMs(decoded)).toBe(TTL - 1_000);
    clock.now += TTL;
    expect(codec.remainingTtlMs(decoded)).toBe(1);
  });

  it('leaves pending out when there is none, and keeps empty rounds', () => {
    const { codec } = setup();
    const decoded = codec.decode(codec.encode({ method: 'prompts/get', target: 'p', argsDigest: 'd', rounds: [] }));
    expect(decoded.rounds).toEqual([]);
    expect('pending' in decoded).toBe(false);
  });

  it('carries the progress the client was shown (whole or fractional, zero included), and leaves it out when none was', () => {
    const { codec } = setup();
    for (const progressShown of [0, 2, 0.75, 1_000_000]) {
      expect(codec.decode(codec.encode({ ...payload, progressShown })).progressShown).toBe(progressShown);
    }
    expect('progressShown' in codec.decode(codec.encode(payload))).toBe(false);
  });

  it('reads a token sealed before progressShown existed as "no progress shown", and ignores keys it does not know', () => {
    const { codec, secret, clock } = setup();
    const before = codec.decode(seal(secret, `{"m":"tools/call","t":"wizard","a":"d","r":[["fp",{"k":{"action":"accept"}}]],"p":["fp2",["k2"]],"i":${clock.now},"s":"id-1"}`));
    expect(before).toEqual({
      method: 'tools/call',
      target: 'wizard',
      argsDigest: 'd',
      rounds: [{ fingerprint: 'fp', responses: { k: { action: 'accept' } } }],
      pending: { fingerprint: 'fp2', keys: ['k2'] },
      issuedAt: clock.now,
      id: 'id-1',
    });
    expect('progressShown' in before).toBe(false);
    // As a server of the layout before progressShown reads `h`: the same format byte, and an unknown key is skipped.
    expect(Buffer.from(codec.encode({ ...payload, progressShown: 2 }), 'base64url')[0]).toBe(REQUEST_STATE_VERSION);
    const later = codec.decode(seal(secret, `{"m":"tools/call","t":"wizard","a":"d","r":[],"h":2,"z":[1],"i":${clock.now},"s":"id-2"}`));
    expect(later).toEqual({ method: 'tools/call', target: 'wizard', argsDigest: 'd', rounds: [], progressShown: 2, issuedAt: clock.now, id: 'id-2' });
  });

  it('uses version byte 3, the 4-byte key id, a 12-byte nonce and a 16-byte tag, and a fresh nonce each time', () => {
    const { codec, secret } = setup();
    const a = codec.encode(payload);
    const b = codec.encode(payload);
    expect(a).not.toBe(b);
    const bytesA = Buffer.from(a, 'base64url');
    const bytesB = Buffer.from(b, 'base64url');
    expect(bytesA[0]).toBe(3);
    expect(bytesA.subarray(1, 5).equals(sealKeyId(secret))).toBe(true);
    expect(bytesA.subarray(5, 17).equals(bytesB.subarray(5, 17))).toBe(false);
    expect(bytesA.length).toBe(bytesB.length);
    // The plaintext is encrypted: nothing readable leaks into the token.
    expect(bytesA.toString('latin1')).not.toContain('checkout');
  });

  it('opens tokens of another codec instance with the same key', () => {
    const { codec, secret, clock } = setup();
    const twin = new RequestStateCodec(Buffer.from(secret), TTL, () => clock.now);
    expect(twin.decode(codec.encode(payload)).target).toBe('checkout');
  });

  it.each([[123], [null], [undefined], [{}], [['x']], ['']])('rejects %j as not a non-empty string', (token) => {
    const { codec } = setup();
    expectRejected(() => codec.decode(token), 'requestState must be a non-empty string');
  });

  it.each(['not a token!', 'abc+def/ghi', `${'A'.repeat(40)}==`, 'AAAA\n'])('rejects garbage %j as not base64url', (token) => {
    const { codec } = setup();
    expectRejected(() => codec.decode(token), 'requestState is not base64url text');
  });

  it('rejects an oversized token before decoding it', () => {
    const { codec } = setup({ maxTokenLength: 1_000 });
    // Not base64url either: the length check must come first.
    expectRejected(() => codec.decode('!'.repeat(1_001)), 'requestState is longer than 1000 characters');
    const { codec: defaults } = setup();
    expectRejected(() => defaults.decode('A'.repeat(64 * 1024 + 1)), 'requestState is longer than 65536 characters');
  });

  it('refuses to encode state that would exceed maxTokenLength', () => {
    const { codec } = setup({ maxTokenLength: 300 });
    const big = { ...payload, rounds: [{ fingerprint: 'f', responses: { k: { text: 'x'.repeat(400) } } }] };
    expect(() => codec.encode(big)).toThrow(InvalidParamsError);
    expect(() => codec.encode(big)).toThrow('The input responses are too large to carry in requestState (limit 300 characters)');
    // A token right at the limit still decodes.
    const fits = codec.encode({ method: 'tools/call', target: 't', argsDigest: 'a', rounds: [] });
    expect(fits.length).toBeLessThanOrEqual(300);
    expect(codec.decode(fits).target).toBe('t');
  });

  it('rejects a truncated token', () => {
    const { codec } = setup();
    const token = codec.encode(payload);
    expectRejected(() => codec.decode(token.slice(0, 20)), 'requestState is truncated');
    expectRejected(() => codec.decode('AAAA'), 'requestState is truncated');
    // Cut short but still long enough to hold a tag: authentication catches it.
    expectRejected(() => codec.decode(token.slice(0, -4)), VERIFICATION);
  });

  it('rejects a token with one character flipped in the middle', () => {
    const { codec } = setup();
    const token = codec.encode(payload);
    const middle = Math.floor(token.length / 2);
    const flipped = token.slice(0, middle) + (token[middle] === 'A' ? 'B' : 'A') + token.slice(middle + 1);
    expectRejected(() => codec.decode(flipped), VERIFICATION);
  });

  it('rejects a token with "-TAMPERED" appended', () => {
    const { codec } = setup();
    expectRejected(() => codec.decode(codec.encode(payload) + '-TAMPERED'), VERIFICATION);
  });

  it('rejects a respelling that decodes to the same bytes (unused trailing bits set)', () => {
    const { codec } = setup();
    // Find a token whose last character carries unused bits, then set them.
    let token = '';
    for (let n = 0; token === '' || token.length % 4 === 0; n++) {
      token = codec.encode({ ...payload, target: 'x'.repeat(n) });
    }
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const bytes = Buffer.from(token, 'base64url');
    const respelled = [...alphabet]
      .map((char) => token.slice(0, -1) + char)
      .find((candidate) => candidate !== token && Buffer.from(candidate, 'base64url').equals(bytes));
    expect(respelled).toBeDefined();
    expectRejected(() => codec.decode(respelled!), VERIFICATION);
  });

  it('rejects a token sealed with a different key', () => {
    const { codec } = setup();
    const { codec: other } = setup();
    expectRejected(() => codec.decode(other.encode(payload)), VERIFICATION);
  });

  it('rejects a token with another version byte (version 1 tokens had no id, version 2 no key id)', () => {
    const { codec, secret, clock } = setup();
    const bytes = Buffer.from(codec.encode(payload), 'base64url');
    bytes[0] = 1;
    expectRejected(() => codec.decode(bytes.toString('base64url')), 'requestState has an unsupported format version');
    // A genuine format-2 token, sealed with this very key before key ids: refused, the call starts over.
    const format2 = sealFormat2(secret, `{"m":"tools/call","t":"x","a":"d","r":[],"i":${clock.now},"s":"id"}`);
    expectRejected(() => codec.decode(format2), 'requestState has an unsupported format version');
  });

  it.each([
    ['not JSON', 'not json'],
    ['an array', '[]'],
    ['a missing method', '{"t":"x","a":"d","r":[],"i":1750000000000,"s":"id"}'],
    ['a round that is not a pair', '{"m":"tools/call","t":"x","a":"d","r":[["fp"]],"i":1750000000000,"s":"id"}'],
    ['responses that are not an object', '{"m":"tools/call","t":"x","a":"d","r":[["fp",[1]]],"i":1750000000000,"s":"id"}'],
    ['non-string pending keys', '{"m":"tools/call","t":"x","a":"d","r":[],"p":["fp",[1]],"i":1750000000000,"s":"id"}'],
    ['a missing id', '{"m":"tools/call","t":"x","a":"d","r":[],"i":1750000000000}'],
    ['a non-string id', '{"m":"tools/call","t":"x","a":"d","r":[],"i":1750000000000,"s":7}'],
    ['a non-numeric issuedAt', '{"m":"tools/call","t":"x","a":"d","r":[],"i":"now","s":"id"}'],
    ['a non-numeric progressShown', '{"m":"tools/call","t":"x","a":"d","r":[],"h":"2","i":1750000000000,"s":"id"}'],
    ['a null progressShown', '{"m":"tools/call","t":"x","a":"d","r":[],"h":null,"i":1750000000000,"s":"id"}'],
  ])('rejects an authentic token holding %s', (_label, plaintext) => {
    const { codec, secret } = setup();
    expectRejected(() => codec.decode(seal(secret, plaintext)), 'requestState does not hold the expected state');
  });

  it('reads a hand-sealed token of the documented layout', () => {
    const { codec, secret, clock } = setup();
    const token = seal(secret, `{"m":"resources/read","t":"file:///a","a":"d","r":[["fp",{"k":{"roots":[]}}]],"i":${clock.now},"s":"id-1"}`);
    expect(codec.decode(token)).toEqual({
      method: 'resources/read',
      target: 'file:///a',
      argsDigest: 'd',
      rounds: [{ fingerprint: 'fp', responses: { k: { roots: [] } } }],
      issuedAt: clock.now,
      id: 'id-1',
    });
  });

  it('rejects an expired token and accepts one exactly at the TTL', () => {
    const { codec, clock } = setup();
    const token = codec.encode(payload);
    clock.now += TTL;
    expect(codec.decode(token).target).toBe('checkout');
    clock.now += 1;
    expectRejected(() => codec.decode(token), 'requestState has expired');
  });

  it('tolerates 60 s of clock skew but rejects a token issued further in the future', () => {
    const { codec, clock } = setup();
    const start = clock.now;
    clock.now = start + 60_000;
    const skewed = codec.encode(payload);
    clock.now = start + 60_001;
    const future = codec.encode(payload);
    clock.now = start;
    expect(codec.decode(skewed).issuedAt).toBe(start + 60_000);
    expectRejected(() => codec.decode(future), 'requestState was issued in the future (check the server clocks)');
  });

  describe('with previous keys (rotation)', () => {
    const [a, b, c] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const clock = { now: 1_750_000_000_000 };
    const codecOf = (keys: SealKeys) => new RequestStateCodec(keys, TTL, () => clock.now);

    it('seals with the current key and opens what any of its keys sealed', () => {
      const underA = codecOf(new SealKeys(a)).encode(payload);
      const underC = codecOf(new SealKeys(c)).encode(payload);
      const rotated = codecOf(new SealKeys(b, [c, a]));
      expect(rotated.decode(underA).target).toBe('checkout');
      expect(rotated.decode(underC).target).toBe('checkout');
      const fresh = rotated.encode(payload);
      expect(Buffer.from(fresh, 'base64url').subarray(1, 5).equals(sealKeyId(b))).toBe(true);
      // The instance one step behind (A current, B previous) opens it too.
      expect(codecOf(new SealKeys(a, [b])).decode(fresh).target).toBe('checkout');
    });

    it('refuses, as from another server, what a key no longer listed sealed', () => {
      const underA = codecOf(new SealKeys(a)).encode(payload);
      expectRejected(() => codecOf(new SealKeys(b)).decode(underA), VERIFICATION);
      expectRejected(() => codecOf(new SealKeys(b, [c])).decode(underA), VERIFICATION);
    });

    it('binds the format byte and key id in the AAD: the right key and id under the bare purpose AAD do not open', () => {
      const plaintext = `{"m":"tools/call","t":"x","a":"d","r":[],"i":${clock.now},"s":"id"}`;
      expect(codecOf(new SealKeys(a)).decode(seal(a, plaintext)).target).toBe('x');
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', a, nonce);
      cipher.setAAD(Buffer.from(REQUEST_STATE_AAD));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const unbound = Buffer.concat([Buffer.from([REQUEST_STATE_VERSION]), sealKeyId(a), nonce, body, cipher.getAuthTag()]).toString('base64url');
      expectRejected(() => codecOf(new SealKeys(a)).decode(unbound), VERIFICATION);
    });
  });

  it('validates its configuration', () => {
    expect(() => new RequestStateCodec(randomBytes(16), TTL)).toThrow('32-byte secret');
    expect(() => new RequestStateCodec(randomBytes(32), 0)).toThrow('positive TTL');
    expect(() => new RequestStateCodec(randomBytes(32), TTL, Date.now, { maxTokenLength: -1 })).toThrow('maxTokenLength');
  });
});
