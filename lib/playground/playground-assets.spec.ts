import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { appFrameCsp, playgroundAssets, playgroundPath } from './playground-assets.js';

describe('playground assets', () => {
  it('lives at <endpoint>/playground, whatever the endpoint looks like', () => {
    expect(playgroundPath('/mcp')).toBe('/mcp/playground');
    expect(playgroundPath('/mcp/')).toBe('/mcp/playground');
    expect(playgroundPath('/api/v1/mcp')).toBe('/api/v1/mcp/playground');
    expect(playgroundPath('/')).toBe('/playground');
  });

  it('weighs under 25 kB gzipped, every file of it (no dependencies, no CDN)', () => {
    const files = [...playgroundAssets().values()];
    const gzipped = files.reduce((total, file) => total + gzipSync(file.body, { level: 9 }).length, 0);
    expect(gzipped).toBeLessThan(25 * 1024);
  });

  it('has every file the page links to, and nothing inline on the page', () => {
    const assets = playgroundAssets();
    const page = assets.get('')!.body.toString('utf8');
    const links = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((link) => !link.startsWith('data:'));
    expect(links.sort()).toEqual(['playground/playground.css', 'playground/playground.js']);
    for (const link of links) expect(assets.has(link.slice('playground/'.length))).toBe(true);
    expect(page).not.toMatch(/<script>|<style|\son[a-z]+=|style="/);
  });

  it('serves the page under a CSP without unsafe-inline; only the sandboxed app frame allows inline code', () => {
    for (const [name, asset] of playgroundAssets()) {
      const csp = asset.csp(new URLSearchParams());
      if (name === 'app-frame.html') expect(csp).toMatch(/script-src 'unsafe-inline'.*sandbox allow-scripts$/);
      else expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("default-src 'none'");
      expect(asset.body.length).toBeGreaterThan(0);
    }
  });

  it('lets the app frame reach only the origins its app declares, each for its use', () => {
    const none = appFrameCsp();
    expect(none).not.toMatch(/connect-src|frame-src|https?:/);
    expect(none).toContain("base-uri 'self'");

    const query = new URLSearchParams();
    query.append('connectDomains', 'https://api.example');
    query.append('connectDomains', 'wss://live.example:8443');
    query.append('resourceDomains', 'https://*.cdn.example');
    query.append('frameDomains', 'https://player.example');
    query.append('baseUriDomains', 'https://base.example');
    const declared = appFrameCsp(query).split('; ');
    expect(declared).toEqual(
      expect.arrayContaining([
        "script-src 'unsafe-inline' https://*.cdn.example",
        "style-src 'unsafe-inline' https://*.cdn.example",
        'img-src data: https://*.cdn.example',
        'font-src data: https://*.cdn.example',
        'connect-src https://api.example wss://live.example:8443',
        'frame-src https://player.example',
        'base-uri https://base.example',
      ]),
    );
    expect(declared.at(-1)).toBe('sandbox allow-scripts');
  });

  it('drops what is not an origin from the app frame query: nothing can add a directive or a keyword', () => {
    const query = new URLSearchParams();
    for (const bad of ["https://a.example; script-src *", '*', "'unsafe-eval'", 'data:', 'https://a.example/path', 'javascript:alert(1)', 'https://a.example https://b.example']) {
      query.append('connectDomains', bad);
      query.append('resourceDomains', bad);
    }
    expect(appFrameCsp(query)).toBe(appFrameCsp());
  });
});
