import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { declaringDirectory, resolveDeclaredPath } from './declaring-file.js';

describe('declared paths', () => {
  it('a relative path resolves beside the calling file, not from the working directory', () => {
    // Called from this file, past a callee of another file (the decorator's module in real use).
    const here = path.dirname(fileURLToPath(import.meta.url));
    expect(declaringDirectory('file:///nowhere/lib.js')).toBe(here);
    expect(resolveDeclaredPath('assets/view.html', here)).toBe(path.join(here, 'assets/view.html'));
  });

  it('a file: URL or an absolute path is taken as it is; without a caller, the working directory is the base', () => {
    expect(resolveDeclaredPath(new URL('file:///srv/app/view.html'), '/elsewhere')).toBe('/srv/app/view.html');
    expect(resolveDeclaredPath('file:///srv/app/view.html', '/elsewhere')).toBe('/srv/app/view.html');
    expect(resolveDeclaredPath('/srv/app/view.html', '/elsewhere')).toBe('/srv/app/view.html');
    expect(resolveDeclaredPath('view.html', undefined)).toBe(path.resolve('view.html'));
  });
});
