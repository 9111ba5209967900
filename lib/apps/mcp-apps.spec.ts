import { describe, expect, it } from '@jest/globals';
import { APP_MIME_TYPE } from '../protocol/protocol.constants.js';
import { appResourceOptions, linkedAppUri, linkedToolMeta, withAppMeta } from './mcp-apps.js';

describe('MCP Apps helpers', () => {
  it('makes an app resource: the app MIME type, ui as _meta.ui next to the given _meta', () => {
    expect(appResourceOptions({ uri: 'ui://a/view.html', name: 'a', ui: { prefersBorder: false }, _meta: { 'example.com/k': 1 } }, 'here')).toEqual({
      uri: 'ui://a/view.html',
      name: 'a',
      mimeType: APP_MIME_TYPE,
      _meta: { 'example.com/k': 1, ui: { prefersBorder: false } },
    });
    expect(appResourceOptions({ uri: 'ui://a/view.html', name: 'a' }, 'here')).toEqual({ uri: 'ui://a/view.html', name: 'a', mimeType: APP_MIME_TYPE });
    expect(() => appResourceOptions({ uri: 'UI://a', name: 'a' }, 'here')).toThrow('here: an MCP App resource URI must start with ui://; got "UI://a"');
  });

  it('links a tool with _meta.ui and the flat key, keeping its other _meta', () => {
    const meta = linkedToolMeta({ 'example.com/k': true }, { resourceUri: 'ui://a/view.html', visibility: ['model'] }, 'T.m()');
    expect(meta).toEqual({ 'example.com/k': true, ui: { resourceUri: 'ui://a/view.html', visibility: ['model'] }, 'ui/resourceUri': 'ui://a/view.html' });
    expect(linkedAppUri({ name: 't', description: 'd', inputSchema: { type: 'object' }, _meta: meta })).toBe('ui://a/view.html');
    expect(linkedAppUri({ name: 't', description: 'd', inputSchema: { type: 'object' } })).toBeUndefined();
    expect(() => linkedToolMeta(undefined, { resourceUri: 'https://x' }, 'T.m()')).toThrow('@McpUi() on T.m(): resourceUri must start with ui://');
  });

  it('puts _meta.ui on app content items, leaving an item\'s own _meta.ui (it takes precedence) and other resources alone', () => {
    const definition = { mimeType: APP_MIME_TYPE, _meta: { ui: { prefersBorder: true } } };
    expect(withAppMeta([{ uri: 'ui://a', text: 'x', _meta: { 'example.com/k': 1 } }], definition)).toEqual([
      { uri: 'ui://a', text: 'x', _meta: { 'example.com/k': 1, ui: { prefersBorder: true } } },
    ]);
    const own = [{ uri: 'ui://a', text: 'x', _meta: { ui: { prefersBorder: false } } }];
    expect(withAppMeta(own, definition)).toEqual(own);
    const plain = [{ uri: 'docs://a', text: 'x' }];
    expect(withAppMeta(plain, { mimeType: 'text/html', _meta: { ui: { prefersBorder: true } } })).toBe(plain);
  });
});
