import { describe, expect, it } from '@jest/globals';
import { clientNetwork, FairShares, type SharePolicy } from './fair-shares.js';

const request = (remoteAddress: string, headers: Record<string, string | string[]> = {}) => ({ headers, socket: { remoteAddress } });
const POLICY: SharePolicy = { perClient: { claim: 10, task: 5, 'session-end': 4 }, clientIpHeader: undefined };

describe('FairShares', () => {
  it("owns a record by the token's principal with auth, whatever the address", () => {
    expect(new FairShares(POLICY).owner(request('10.0.0.1'), 'alice')).toEqual({ id: 'principal:alice' });
  });

  it("owns it by the connection's address without auth; headers count only when configured, their last entry", () => {
    const direct = new FairShares(POLICY);
    const proxied = (header: string) => new FairShares({ ...POLICY, clientIpHeader: header });
    expect(direct.owner(request('10.0.0.1', { 'x-real-ip': '1.2.3.4' }), undefined)?.id).toBe('address:10.0.0.1');
    expect(proxied('x-real-ip').owner(request('10.0.0.1', { 'x-real-ip': '1.2.3.4' }), undefined)?.id).toBe('address:1.2.3.4');
    expect(proxied('x-forwarded-for').owner(request('10.0.0.1', { 'x-forwarded-for': 'forged, 5.6.7.8' }), undefined)?.id).toBe('address:5.6.7.8');
    expect(proxied('x-real-ip').owner(request('10.0.0.1'), undefined)).toEqual({ id: 'address:10.0.0.1' });
    // stdio: one peer per process, nobody to share with.
    expect(direct.owner(undefined, undefined)).toBeUndefined();
    expect(direct.scope('claim', undefined)).toEqual({ kind: 'claim' });
  });

  it("limits a record to its owner's share of the kind's budget", () => {
    const shares = new FairShares(POLICY);
    expect(shares.scope('claim', { id: 'principal:alice' })).toEqual({ kind: 'claim', limits: [{ id: 'principal:alice', limit: 10 }] });
    expect(shares.scope('session-end', { id: 'address:10.0.0.1' })).toEqual({ kind: 'session-end', limits: [{ id: 'address:10.0.0.1', limit: 4 }] });
  });

  it('says at start-up which owner key is in force', () => {
    expect(new FairShares(POLICY).describe()).toBe(
      "Each client (the token's principal, else the connection's address (behind a proxy, set mocapi.store.client-ip-header, or every client is one owner)) " +
        'may hold at most 10 requestState claims, 5 tasks, 4 ended sessions',
    );
    expect(new FairShares({ ...POLICY, clientIpHeader: 'x-real-ip' }).describe()).toContain(
      'else the client address in the x-real-ip header (set by your proxy)) may hold at most 10 requestState claims',
    );
  });

  it('groups IPv6 by /64 and unwraps IPv4-mapped addresses', () => {
    expect(clientNetwork('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('[fe80::1%eth0]')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('not an address'.repeat(10))).toHaveLength(64);
  });
});
