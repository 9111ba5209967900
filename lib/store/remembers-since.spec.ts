import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { InMemoryMcpBus } from '../bus/in-memory-mcp-bus.js';
import { LegacySessionCodec } from '../era/session.js';
import { LegacySessions } from '../era/sessions.js';
import { digestArguments } from '../mrtr/fingerprint.util.js';
import { InputRounds, REQUEST_STATE_FORGOTTEN } from '../mrtr/input-rounds.js';
import { RequestStateCodec } from '../mrtr/request-state.codec.js';
import { InMemoryMcpStore } from './in-memory-mcp-store.js';
import type { McpStore } from './mcp-store.js';
import { mayHaveForgotten } from './remembers-since.js';
import { StoreUnavailableError } from './store-limits.js';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import { FairShares } from './fair-shares.js';

const CALL = { method: 'tools/call', target: 'upgrade-plan', arguments: { userId: 'u1' } };
const SESSION = { protocolVersion: '2025-11-25', clientCapabilities: {} };

function setup() {
  const clock = { now: 1_750_000_000_000 };
  const key = randomBytes(32);
  const codec = new RequestStateCodec(key, 300_000, () => clock.now);
  const sessionCodec = new LegacySessionCodec(key, 60_000, () => clock.now);
  /** A token the server issued now, for round 2 of CALL. */
  const token = () => codec.encode({ method: CALL.method, target: CALL.target, argsDigest: digestArguments(CALL.arguments), rounds: [] });
  const claim = (store: McpStore, requestState: string) => new InputRounds({ codec, store }, CALL, { requestState }, {}).claimState();
  const sessions = (store: McpStore) => new LegacySessions(sessionCodec, store, new InMemoryMcpBus(), new FairShares(resolveMcpSettings().store.shares));
  return { clock, token, claim, sessions };
}

describe('McpStore.remembersSince', () => {
  it('in memory: what was sealed before the store was created is forgotten, what was sealed since is not', async () => {
    const { clock, token, claim } = setup();
    const before = token();
    clock.now += 1;
    const store = new InMemoryMcpStore({ clock: () => clock.now });
    expect(store.remembersSince()).toBe(clock.now);
    await expect(claim(store, before)).rejects.toMatchObject({ code: -32602, message: REQUEST_STATE_FORGOTTEN });
    const since = token();
    await claim(store, since);
    await expect(claim(store, since)).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^requestState was already used/) });
  });

  it('a store that is still learning the moment is waited for; one that cannot learn it refuses with its own error', async () => {
    const { clock, token, claim, sessions } = setup();
    const memory = new InMemoryMcpStore({ clock: () => clock.now });
    let learn!: (moment: number) => void;
    const learning: McpStore = Object.assign(Object.create(memory) as McpStore, {
      remembersSince: () => new Promise<number>((resolve) => (learn = resolve)),
    });
    const older = token();
    clock.now += 10;
    const refused = claim(learning, older);
    learn(clock.now - 5);
    await expect(refused).rejects.toMatchObject({ message: REQUEST_STATE_FORGOTTEN });

    const unreachable: McpStore = Object.assign(Object.create(memory) as McpStore, { remembersSince: () => Promise.reject(new StoreUnavailableError()) });
    await expect(claim(unreachable, token())).rejects.toBeInstanceOf(StoreUnavailableError);
    const { sessionId } = sessions(unreachable).issue(SESSION)!;
    await expect(sessions(unreachable).resolve(sessionId, undefined)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('a 2025 session opened before the moment is unknown (404), one opened since is served', async () => {
    const { clock, sessions } = setup();
    const store = new InMemoryMcpStore({ clock: () => clock.now });
    const earlier = sessions(store).issue(SESSION)!.sessionId;
    clock.now += 1;
    const restarted = new InMemoryMcpStore({ clock: () => clock.now });
    await expect(sessions(restarted).resolve(earlier, undefined)).rejects.toMatchObject({ code: -32001, httpStatus: 404 });
    const later = sessions(restarted).issue(SESSION)!.sessionId;
    await expect(sessions(restarted).resolve(later, undefined)).resolves.toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it("a store without it (an application's own) is trusted as before", () => {
    const memory = new InMemoryMcpStore();
    const own: McpStore = {
      claimOnce: (...args) => memory.claimOnce(...args),
      get: (key) => memory.get(key),
      set: (...args) => memory.set(...args),
      create: (...args) => memory.create(...args),
      compareAndSet: (...args) => memory.compareAndSet(...args),
      release: (...args) => memory.release(...args),
      delete: (key) => memory.delete(key),
    };
    expect(mayHaveForgotten(own, 0)).toBe(false);
    expect(mayHaveForgotten(memory, memory.remembersSince() - 1)).toBe(true);
    expect(mayHaveForgotten(memory, memory.remembersSince())).toBe(false);
  });
});
