import { describe, expect, it } from '@jest/globals';
import { assertServerCard } from '../../test/support/server-card-schema.js';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import type { ServedCardSettings } from '../config/server-card-settings.js';
import { catalogIdentifier } from './ai-catalog.js';
import { isNotModified, publicDocument } from './public-document.js';
import { buildServerCard, endpointUrlOf } from './server-card.js';

const config = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

function served(options: Parameters<typeof resolveMcpSettings>[0], values: Record<string, unknown> = {}) {
  const settings = resolveMcpSettings(options, config(values));
  if (!settings.serverCard.served) throw new Error(`no card: ${settings.serverCard.lacking.join(', ')}`);
  return { settings, card: settings.serverCard as ServedCardSettings };
}

describe('the Server Card', () => {
  it('is built from the settings into a card the extension schema accepts, with and without a remote', () => {
    const { settings, card } = served({ name: 'weather', version: '1.2.3', serverCard: { namespace: 'com.example', description: 'Forecasts' } });
    const withRemote = buildServerCard(settings, card, 'https://mcp.example.com/mcp', 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    assertServerCard(withRemote);
    expect(withRemote.remotes?.[0].headers?.[0]).toMatchObject({ name: 'Authorization', isRequired: true, isSecret: true });
    assertServerCard(buildServerCard(settings, card, undefined));
  });

  it('is checked by a validator that refuses what the schema refuses', () => {
    const { settings, card } = served({ name: 'weather', serverCard: { namespace: 'com.example', description: 'Forecasts' } });
    const good = buildServerCard(settings, card, 'https://mcp.example.com/mcp');
    expect(() => assertServerCard({ ...good, name: 'weather' })).toThrow('must match pattern');
    expect(() => assertServerCard({ ...good, $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server-card.schema.json' })).toThrow('Not a valid ServerCard');
    expect(() => assertServerCard({ ...good, remotes: [{ type: 'streamable-http', url: 'mcp.example.com/mcp' }] })).toThrow('/remotes/0/url');
  });

  it('finds the endpoint URL: as set, else the auth resource, else the request, and no URL from a Host that is not a host', () => {
    const { settings, card } = served({ name: 'weather', endpoint: '/rpc', serverCard: { namespace: 'com.example', description: 'Forecasts' } });
    expect(endpointUrlOf(settings, card, { host: 'Example.COM:8080', secure: true })).toBe('https://example.com:8080/rpc');
    expect(endpointUrlOf(settings, card, { host: '[::1]:3000', secure: false })).toBe('http://[::1]:3000/rpc');
    for (const host of [undefined, '', 'a b', 'evil.example/x', 'user@evil.example']) expect(endpointUrlOf(settings, card, { host, secure: false })).toBeUndefined();
    const set = served({ name: 'weather', serverCard: { namespace: 'com.example', description: 'Forecasts', url: 'https://public.example/mcp' } });
    expect(endpointUrlOf(set.settings, set.card, { host: 'internal:3000', secure: false })).toBe('https://public.example/mcp');
  });

  it('is on by default once described, and says what it lacks otherwise', () => {
    expect(resolveMcpSettings().serverCard).toEqual({ served: false, lacking: [expect.stringContaining('mocapi.server-card.namespace'), expect.stringContaining('mocapi.server-card.description')] });
    expect(resolveMcpSettings({ name: 'com.example/weather' }).serverCard).toEqual({ served: false, lacking: [expect.stringContaining('mocapi.server-card.description')] });
    expect(resolveMcpSettings({}, config({ MOCAPI_SERVER_CARD_ENABLED: 'false' })).serverCard).toEqual({ served: false, lacking: [] });
    expect(() => resolveMcpSettings({}, config({ MOCAPI_SERVER_CARD_ENABLED: 'yes' }))).toThrow('MOCAPI_SERVER_CARD_ENABLED must be "true" or "false"');
  });

  it('refuses at start-up what would make an invalid card', () => {
    const card = { namespace: 'com.example', description: 'Forecasts' };
    expect(() => resolveMcpSettings({ name: 'com.example/weather', serverCard: card })).toThrow('has a namespace already');
    expect(() => resolveMcpSettings({ name: 'my weather', serverCard: card })).toThrow('mocapi.server.name must be letters, digits');
    expect(() => resolveMcpSettings({ name: 'a/b/c', serverCard: { description: 'Forecasts' } })).toThrow('mocapi.server.name must be "namespace/name"');
    expect(() => resolveMcpSettings({ name: 'weather', title: 't'.repeat(101), serverCard: card })).toThrow('mocapi.server.title must be 1 to 100 characters');
    expect(() => resolveMcpSettings({ name: 'weather', serverCard: { ...card, websiteUrl: 'example.com' } })).toThrow('serverCard.websiteUrl must be an absolute URL');
    expect(() => resolveMcpSettings({ name: 'weather', serverCard: { ...card, icons: [{ src: 'icon.png' }] } })).toThrow('serverCard.icons[].src must be an absolute URL');
    expect(() => resolveMcpSettings({ name: 'weather', serverCard: { ...card, repository: { url: 'https://github.com/x/y', source: '' } } })).toThrow('repository.source');
  });
});

describe('entity tags and the AI Catalog identifier', () => {
  it('tags a document by its text, and compares If-None-Match weakly', () => {
    const document = publicDocument({ a: 1 });
    expect(publicDocument({ a: 1 }).etag).toBe(document.etag);
    expect(publicDocument({ a: 2 }).etag).not.toBe(document.etag);
    expect(isNotModified(undefined, document.etag)).toBe(false);
    expect(isNotModified(document.etag, document.etag)).toBe(true);
    expect(isNotModified(` W/${document.etag} `, document.etag)).toBe(true);
    expect(isNotModified(`"x", ${document.etag}`, document.etag)).toBe(true);
    expect(isNotModified('*', document.etag)).toBe(true);
    expect(isNotModified('"x"', document.etag)).toBe(false);
    expect(isNotModified(document.etag.slice(1, -1), document.etag)).toBe(false);
  });

  it('names a card urn:air:{publisher}:mcp:{name}, the publisher its namespace as a domain', () => {
    expect(catalogIdentifier('com.example/weather')).toBe('urn:air:example.com:mcp:weather');
    expect(catalogIdentifier('io.github.acme/tides')).toBe('urn:air:acme.github.io:mcp:tides');
  });
});
