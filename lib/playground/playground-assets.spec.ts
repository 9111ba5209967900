import { describe, expect, it } from '@jest/globals';
import { playgroundAssets, playgroundPath } from './playground-assets.js';

describe('playground assets', () => {
  it('lives at <endpoint>/playground, whatever the endpoint looks like', () => {
    expect(playgroundPath('/mcp')).toBe('/mcp/playground');
    expect(playgroundPath('/mcp/')).toBe('/mcp/playground');
    expect(playgroundPath('/api/v1/mcp')).toBe('/api/v1/mcp/playground');
    expect(playgroundPath('/')).toBe('/playground');
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
      if (name === 'app-frame.html') expect(asset.csp).toMatch(/script-src 'unsafe-inline'.*sandbox allow-scripts$/);
      else expect(asset.csp).not.toContain('unsafe-inline');
      expect(asset.csp).toContain("default-src 'none'");
      expect(asset.body.length).toBeGreaterThan(0);
    }
  });
});
