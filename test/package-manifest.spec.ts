import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The package a bare import specifier belongs to (`@scope/name/deep.js` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('package manifest', () => {
  it('declares every package the library imports as a dependency or peer dependency', () => {
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const imported = new Set<string>();
    for (const file of sources(join(root, 'lib'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)) {
        const name = packageOf(match[1]);
        if (!name.startsWith('node:') && !builtinModules.includes(name)) imported.add(name);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('keeps Nest and its companions as peers, so the application shares one copy', () => {
    for (const name of ['@nestjs/common', '@nestjs/core', 'rxjs', 'reflect-metadata', 'class-validator', 'class-transformer']) {
      expect(manifest.peerDependencies[name]).toBeDefined();
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });

  it('publishes the built library with types to ESM and CommonJS (require(esm)) consumers alike', () => {
    // `default` rather than `import`: a CommonJS app's require() must resolve it too.
    expect(manifest.exports['.']).toEqual({ types: './dist/lib/index.d.ts', default: './dist/lib/index.js' });
    // The test kit is a second entry point (lib/testing), built into the same dist/lib.
    expect(manifest.exports['./testing']).toEqual({ types: './dist/lib/testing/index.d.ts', default: './dist/lib/testing/index.js' });
    expect(manifest.files).toEqual(['dist/lib']);
  });

  it('lets the test kit use only what the main entry has: no test-only package among its imports', () => {
    const imported = new Set<string>();
    for (const file of sources(join(root, 'lib/testing'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)) imported.add(packageOf(match[1]));
    }
    expect([...imported].sort()).toEqual(['@nestjs/common', '@nestjs/core']);
  });

  it('builds dist/ when installed from git or packed, and asks for the Node that Nest 12 needs', () => {
    expect(manifest.scripts.prepare).toBe('npm run build');
    // Nest 12's dependencies (file-type, content-type) declare Node >= 22; require(esm) is unflagged from 22.12.
    expect(manifest.engines).toEqual({ node: '>=22.12' });
  });
});
