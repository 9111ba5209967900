import { describe, expect, it } from '@jest/globals';
import { OriginPolicy } from './origin.policy.js';

describe('OriginPolicy', () => {
  it('allows localhost origins on any port by default, and requests without Origin', () => {
    const policy = new OriginPolicy(undefined, undefined);
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1', 'https://[::1]:8443']) {
      expect(policy.isAllowed(origin, 'localhost:3000')).toBe(true);
    }
    expect(policy.isAllowed(undefined, 'anything.example')).toBe(true);
  });

  it('refuses other origins by default (DNS rebinding), and malformed ones', () => {
    const policy = new OriginPolicy(undefined, undefined);
    expect(policy.isAllowed('http://evil.example.com', 'evil.example.com')).toBe(false);
    expect(policy.isAllowed('http://localhost.evil.example', 'localhost')).toBe(false);
    expect(policy.isAllowed('not a url', 'localhost')).toBe(false);
  });

  it('uses a configured origin list exactly, or allows every origin with *', () => {
    const policy = new OriginPolicy(['https://app.example.com'], undefined);
    expect(policy.isAllowed('https://app.example.com', 'x')).toBe(true);
    expect(policy.isAllowed('http://localhost:3000', 'x')).toBe(false);
    expect(new OriginPolicy(['*'], undefined).isAllowed('https://any.example', 'x')).toBe(true);
  });

  it('checks Host (port ignored, IPv6 brackets kept) only when hosts are configured', () => {
    const policy = new OriginPolicy(undefined, ['api.example.com', '[::1]']);
    expect(policy.isAllowed(undefined, 'api.example.com:443')).toBe(true);
    expect(policy.isAllowed(undefined, '[::1]:3000')).toBe(true);
    expect(policy.isAllowed(undefined, 'evil.example.com')).toBe(false);
    expect(policy.isAllowed(undefined, undefined)).toBe(false);
  });
});
