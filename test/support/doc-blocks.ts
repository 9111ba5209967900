import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The TypeScript blocks of the documentation (README.md and docs/**\/*.md), as docs/README.md describes
 * them for contributors: each block is a complete file, or a fragment that an `<!-- prelude: NAME -->`
 * comment on the line before it places at the `/* NAME *\/` line of a file in docs/preludes/. A block whose
 * first line is `// name.ts` is that file of its page: other blocks of the page import it as `./name.js`.
 */
export interface DocBlock {
  /** The markdown file, relative to the repository root. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  source: string;
  prelude?: string;
  /** The file name the block gives itself (`// app.module.ts`), if any. */
  fileName?: string;
}

export const REPOSITORY_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every markdown page under docs/, repository-relative. */
export function documentationPages(root = REPOSITORY_ROOT): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) pages.push(relative);
    }
  };
  walk('docs');
  return pages.sort();
}

const FENCE = /^(\s*)(`{3,})(\S*)\s*$/;

export function typescriptBlocks(page: string, root = REPOSITORY_ROOT): DocBlock[] {
  const lines = readFileSync(path.join(root, page), 'utf8').split(/\r?\n/);
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]);
    if (!open) continue;
    const [, indent, fence, language] = open;
    let end = index + 1;
    while (end < lines.length && !(lines[end].trimStart().startsWith(fence) && lines[end].trim() === lines[end].trim().replace(/[^`]/g, ''))) end++;
    if (language === 'ts' || language === 'typescript') {
      const source = lines.slice(index + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
      let before = index - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      const marker = before >= 0 ? lines[before].trim() : '';
      // A block install-check copies into a scratch app (`<!-- testing-example: src/x.spec.ts -->`) is that
      // file, and a spec there uses the test runner's globals, which the test-globals prelude declares.
      const testingExample = /^<!-- testing-example: (\S+) -->$/.exec(marker)?.[1];
      const prelude = /^<!-- prelude: (\S+) -->$/.exec(marker)?.[1] ?? (testingExample?.endsWith('.spec.ts') ? 'test-globals' : undefined);
      const fileName = testingExample ? path.posix.basename(testingExample) : /^\/\/ ([\w.-]+\.ts)\b/.exec(source)?.[1];
      blocks.push({ page, line: index + 1, source, prelude, fileName });
    }
    index = end;
  }
  return blocks;
}
