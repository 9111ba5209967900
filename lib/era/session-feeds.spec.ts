import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { firstValueFrom, toArray } from 'rxjs';
import { LegacySessionCodec } from './session.js';
import { LegacySessions } from './sessions.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import { LegacySessionFeeds, MAX_SUBSCRIPTIONS_PER_SESSION } from './session-feeds.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { InMemoryMcpBus } from '../bus/in-memory-mcp-bus.js';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import { FairShares } from '../store/fair-shares.js';

const SHARES = new FairShares(resolveMcpSettings().store.shares);

function setup(ttlMs = 60_000) {
  const codec = new LegacySessionCodec(randomBytes(32), ttlMs);
  const bus = new InMemoryMcpBus();
  const sessions = new LegacySessions(codec, new InMemoryMcpStore(), bus, SHARES);
  const registry = new McpRegistry();
  const feeds = new LegacySessionFeeds(registry, codec, sessions, bus);
  const session = codec.issue({ protocolVersion: '2025-11-25', clientCapabilities: {} })!.session;
  return { codec, sessions, registry, feeds, session };
}

describe('LegacySessionFeeds', () => {
  it('a session may hold a bounded number of subscriptions; resubscribing one it holds is free', () => {
    const { feeds, session } = setup();
    for (let index = 0; index < MAX_SUBSCRIPTIONS_PER_SESSION; index++) feeds.subscribe(session, `r://${index}`);
    feeds.subscribe(session, 'r://0');
    expect(() => feeds.subscribe(session, 'r://one-more')).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it('the feed completes when the session ends, and ending forgets its subscriptions', async () => {
    const { feeds, sessions, registry, session } = setup();
    feeds.subscribe(session, 'r://a');
    const seen = firstValueFrom(feeds.notifications(session).pipe(toArray()));
    registry.notifyResourceUpdated('r://a');
    await sessions.end(session, undefined);
    expect(await seen).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'r://a' } }]);
    const after = firstValueFrom(feeds.notifications(session).pipe(toArray()));
    registry.notifyResourceUpdated('r://a');
    registry.notifyListChanged('tools');
    feeds.onModuleDestroy();
    expect(await after).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('the feed completes when the session expires', async () => {
    const { feeds, session } = setup(1);
    await expect(firstValueFrom(feeds.notifications(session).pipe(toArray()))).resolves.toEqual([]);
  });

  it('a second subscriber is refused while the first is open (409), and admitted after it leaves', () => {
    const { feeds, session } = setup();
    const first = feeds.notifications(session).subscribe();
    let refusal: unknown;
    feeds.notifications(session).subscribe({ error: (error) => (refusal = error) });
    expect(refusal).toMatchObject({ httpStatus: 409 });
    first.unsubscribe();
    let refused = false;
    const second = feeds.notifications(session).subscribe({ error: () => (refused = true) });
    expect(refused).toBe(false);
    second.unsubscribe();
  });
});
