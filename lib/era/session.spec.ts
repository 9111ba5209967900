import { InMemoryMcpBus } from '../bus/in-memory-mcp-bus.js';
import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { RequestStateCodec } from '../mrtr/request-state.codec.js';
import { SealKeys, sealKeyId } from '../mrtr/request-state.key.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import { LegacySessionCodec, MAX_SESSION_ID_LENGTH } from './session.js';
import { LegacySessions } from './sessions.js';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import { FairShares } from '../store/fair-shares.js';

const SHARES = new FairShares(resolveMcpSettings().store.shares);

const FIELDS = { protocolVersion: '2025-11-25', clientCapabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } };

function setup() {
  const clock = { now: 1_750_000_000_000 };
  const secret = randomBytes(32);
  const codec = new LegacySessionCodec(secret, 60_000, () => clock.now);
  return { clock, secret, codec };
}

describe('LegacySessionCodec', () => {
  it('seals the negotiated state into a visible-ASCII id that any codec with the secret opens', () => {
    const { secret, codec, clock } = setup();
    const { session, sessionId } = codec.issue(FIELDS)!;
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(sessionId).not.toContain('elicitation');
    expect(new LegacySessionCodec(secret, 60_000, () => clock.now).open(sessionId)).toEqual(session);
    expect(session).toEqual(expect.objectContaining({ ...FIELDS, issuedAt: clock.now }));
  });

  it('refuses altered, foreign-key, expired and requestState tokens', () => {
    const { secret, codec, clock } = setup();
    const { sessionId } = codec.issue(FIELDS)!;
    const flipped = sessionId.slice(0, 20) + (sessionId[20] === 'A' ? 'B' : 'A') + sessionId.slice(21);
    expect(codec.open(flipped)).toBeUndefined();
    expect(new LegacySessionCodec(randomBytes(32), 60_000, () => clock.now).open(sessionId)).toBeUndefined();
    const requestState = new RequestStateCodec(secret, 60_000, () => clock.now).encode({ method: 'tools/call', target: 't', argsDigest: 'd', rounds: [] });
    expect(codec.open(requestState)).toBeUndefined();
    expect(codec.open('x'.repeat(MAX_SESSION_ID_LENGTH + 1))).toBeUndefined();
    clock.now += 59_999;
    expect(codec.open(sessionId)).toBeDefined();
    clock.now += 1;
    expect(codec.open(sessionId)).toBeUndefined();
  });

  it('seals with the current key (format byte 2, then its key id) and opens ids any of its keys sealed', () => {
    const { clock } = setup();
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const underA = new LegacySessionCodec(new SealKeys(a), 60_000, () => clock.now).issue(FIELDS)!;
    const rotated = new LegacySessionCodec(new SealKeys(b, [a]), 60_000, () => clock.now);
    expect(rotated.open(underA.sessionId)).toEqual(underA.session);
    const underB = rotated.issue(FIELDS)!;
    const bytes = Buffer.from(underB.sessionId, 'base64url');
    expect(bytes[0]).toBe(2);
    expect(bytes.subarray(1, 5).equals(sealKeyId(b))).toBe(true);
    expect(new LegacySessionCodec(new SealKeys(a, [b]), 60_000, () => clock.now).open(underB.sessionId)).toEqual(underB.session);
    // A dropped, A's ids are unknown; format-1 ids (no key id) are unknown too.
    expect(new LegacySessionCodec(new SealKeys(b), 60_000, () => clock.now).open(underA.sessionId)).toBeUndefined();
    bytes[0] = 1;
    expect(rotated.open(bytes.toString('base64url'))).toBeUndefined();
  });

  it('will not issue an id longer than a header should be', () => {
    const { codec } = setup();
    expect(codec.issue({ ...FIELDS, clientCapabilities: { experimental: { big: { text: 'x'.repeat(MAX_SESSION_ID_LENGTH) } } } })).toBeUndefined();
  });
});

describe('LegacySessions', () => {
  it('an ended session is unknown to every instance that shares the store', async () => {
    const { secret, clock } = setup();
    const store = new InMemoryMcpStore({ clock: () => clock.now });
    const one = new LegacySessions(new LegacySessionCodec(secret, 60_000, () => clock.now), store, new InMemoryMcpBus(), SHARES);
    const two = new LegacySessions(new LegacySessionCodec(secret, 60_000, () => clock.now), store, new InMemoryMcpBus(), SHARES);
    const { sessionId } = one.issue(FIELDS)!;
    const session = await two.resolve(sessionId, undefined);
    await two.end(session, undefined);
    await expect(one.resolve(sessionId, undefined)).rejects.toMatchObject({ code: -32001, httpStatus: 404 });
    await expect(one.resolve('garbage', undefined)).rejects.toMatchObject({ code: -32001 });
  });

  it('a session belongs to its principal: anyone else (another user, or no user) is told it is unknown, as is an altered owner', async () => {
    const { clock, codec } = setup();
    const sessions = new LegacySessions(codec, new InMemoryMcpStore({ clock: () => clock.now }), new InMemoryMcpBus(), SHARES);
    const { sessionId } = sessions.issue({ ...FIELDS, principal: 'alice' })!;
    await expect(sessions.resolve(sessionId, 'alice')).resolves.toMatchObject({ principal: 'alice' });
    for (const other of ['bob', undefined, 'Alice', 'alice ']) {
      await expect(sessions.resolve(sessionId, other)).rejects.toMatchObject({ code: -32001, httpStatus: 404 });
    }
    // Opened by no one (auth off): a token-bearing caller cannot use it either.
    const anonymous = sessions.issue(FIELDS)!.sessionId;
    await expect(sessions.resolve(anonymous, undefined)).resolves.not.toHaveProperty('principal');
    await expect(sessions.resolve(anonymous, 'alice')).rejects.toMatchObject({ code: -32001 });
  });

  it('a session opened once (and kept) is still refused at once when ended here or elsewhere, and when it expires', async () => {
    const { secret, clock } = setup();
    const store = new InMemoryMcpStore({ clock: () => clock.now });
    const one = new LegacySessions(new LegacySessionCodec(secret, 60_000, () => clock.now), store, new InMemoryMcpBus(), SHARES);
    const two = new LegacySessions(new LegacySessionCodec(secret, 60_000, () => clock.now), store, new InMemoryMcpBus(), SHARES);
    const first = one.issue(FIELDS)!.sessionId;
    const second = one.issue(FIELDS)!.sessionId;
    const third = one.issue(FIELDS)!.sessionId;
    for (const id of [first, second, third]) await expect(one.resolve(id, undefined)).resolves.toBeDefined();
    await one.end(await one.resolve(first, undefined), undefined);
    await expect(one.resolve(first, undefined)).rejects.toMatchObject({ code: -32001 });
    await two.end(await two.resolve(second, undefined), undefined);
    await expect(one.resolve(second, undefined)).rejects.toMatchObject({ code: -32001 });
    // An altered id is refused even though the id it came from was opened before.
    const flipped = third.slice(0, 20) + (third[20] === 'A' ? 'B' : 'A') + third.slice(21);
    await expect(one.resolve(flipped, undefined)).rejects.toMatchObject({ code: -32001 });
    await expect(one.resolve(third, undefined)).resolves.toBeDefined();
    clock.now += 60_000;
    await expect(one.resolve(third, undefined)).rejects.toMatchObject({ code: -32001 });
  });
});
