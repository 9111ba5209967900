import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { documentationPages, REPOSITORY_ROOT } from './support/doc-blocks.js';

// Every relative link of README.md and docs/ reaches a file of the repository, and an anchor reaches a heading
// of its page (GitHub's slugs), so that moving a section cannot leave a link behind.

/** The page's text outside fenced blocks, where headings are headings. */
function outsideFences(text: string): string {
  return text.replace(/^(\s*)(`{3,})[^\n]*\n[\s\S]*?\n\1\2[ \t]*$/gm, '');
}

/** ... and outside inline code, where links are links. */
function prose(text: string): string {
  return outsideFences(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
  const headings = outsideFences(readFileSync(path.join(REPOSITORY_ROOT, page), 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((heading) => slug(heading.replace(/^#+ /, ''))));
}

describe('the links of the documentation', () => {
  for (const page of documentationPages()) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const [, target] of prose(readFileSync(path.join(REPOSITORY_ROOT, page), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split('#');
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        if (!existsSync(path.join(REPOSITORY_ROOT, resolved))) {
          broken.push(`${target}: no file ${resolved}`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
