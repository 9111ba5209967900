import { describe, expect, it } from '@jest/globals';
import { clientNetwork, taskOwner } from './task-owner.js';

const request = (remoteAddress: string, headers: Record<string, string | string[]> = {}) => ({ headers, socket: { remoteAddress } });

describe('taskOwner', () => {
  it("is the token's principal with auth, whatever the address", () => {
    expect(taskOwner(request('10.0.0.1'), 'alice', undefined)).toBe('principal:alice');
  });

  it("is the connection's address without auth; headers count only when configured, their last entry", () => {
    expect(taskOwner(request('10.0.0.1', { 'x-real-ip': '1.2.3.4' }), undefined, undefined)).toBe('address:10.0.0.1');
    expect(taskOwner(request('10.0.0.1', { 'x-real-ip': '1.2.3.4' }), undefined, 'x-real-ip')).toBe('address:1.2.3.4');
    expect(taskOwner(request('10.0.0.1', { 'x-forwarded-for': 'forged, 5.6.7.8' }), undefined, 'x-forwarded-for')).toBe('address:5.6.7.8');
    expect(taskOwner(request('10.0.0.1'), undefined, 'x-real-ip')).toBe('address:10.0.0.1');
    // stdio: one peer per process.
    expect(taskOwner(undefined, undefined, undefined)).toBe('local');
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
