import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { documentationPages, REPOSITORY_ROOT, typescriptBlocks, type DocBlock } from './support/doc-blocks.js';

// Every ```ts block of README.md and docs/ is type-checked as a file of a user's ES module app, importing
// `nest-mcp` and `nest-mcp/testing` (mapped to lib/ by tsconfig.json's paths) under the repository's compiler
// options. docs/README.md ("Writing these pages") gives the rules: a complete file, or a fragment placed in a
// prelude of docs/preludes/ at the line `/* NAME */` its `<!-- prelude: NAME -->` marker names.

const PRELUDES = path.join(REPOSITORY_ROOT, 'docs/preludes');
const VIRTUAL_ROOT = path.join(REPOSITORY_ROOT, '.docs-examples');

interface PlacedBlock {
  block: DocBlock;
  file: string;
  /** Lines of the prelude above the block, to map a diagnostic back to the markdown. */
  offset: number;
}

/** The lines of the prelude file in docs/preludes/ that has a `/* NAME *\/` line. */
function preludeLines(name: string): string[] {
  for (const file of readdirSync(PRELUDES).filter((entry) => entry.endsWith('.ts'))) {
    const lines = readFileSync(path.join(PRELUDES, file), 'utf8').split('\n');
    if (lines.some((line) => line.trim() === `/* ${name} */`)) return lines;
  }
  throw new Error(`no file of docs/preludes/ has a /* ${name} */ line for <!-- prelude: ${name} -->`);
}

function placeBlocks(blocks: DocBlock[]): { placed: PlacedBlock[]; sources: Map<string, string>; named: Map<string, string> } {
  const sources = new Map<string, string>();
  const named = new Map<string, string>(); // `<page folder>/<name>.ts` → source, the first block of that name
  const placed = blocks.map((block) => {
    const folder = path.join(VIRTUAL_ROOT, block.page.replace(/\.md$/, ''));
    const file = path.join(folder, `L${block.line}`, block.fileName ?? 'example.ts');
    let source = block.source;
    let offset = 0;
    if (block.prelude) {
      const prelude = preludeLines(block.prelude);
      offset = prelude.findIndex((line) => line.trim() === `/* ${block.prelude} */`);
      const others = (line: string) => !/^\s*\/\* [\w-]+ \*\/\s*$/.test(line);
      source = [...prelude.slice(0, offset).filter(others), block.source, ...prelude.slice(offset + 1).filter(others)].join('\n');
      offset = prelude.slice(0, offset).filter(others).length;
    }
    sources.set(file, source);
    const key = path.join(folder, block.fileName ?? '');
    if (block.fileName && !named.has(key)) named.set(key, source);
    return { block, file, offset };
  });
  return { placed, sources, named };
}

/** A virtual file, or a sibling a block imports (`./app.module.js`): the page's block of that name. */
function virtualSource(file: string, sources: Map<string, string>, named: Map<string, string>): string | undefined {
  const own = sources.get(file);
  if (own !== undefined) return own;
  if (!file.startsWith(VIRTUAL_ROOT)) return undefined;
  const sibling = path.join(path.dirname(path.dirname(file)), path.basename(file));
  return named.get(sibling);
}

function compilerOptions(): ts.CompilerOptions {
  const configFile = path.join(REPOSITORY_ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPOSITORY_ROOT, undefined, configFile);
  return { ...parsed.options, noEmit: true, declaration: false, sourceMap: false, incremental: false, rootDir: undefined, outDir: undefined };
}

const blocks = documentationPages().flatMap((page) => typescriptBlocks(page));
const { placed, sources, named } = placeBlocks(blocks);
const diagnosticsByFile = new Map<string, readonly ts.Diagnostic[]>();
let host: ts.CompilerHost;

beforeAll(() => {
  const options = compilerOptions();
  host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const { directoryExists } = host;
  host.directoryExists = (dir) => dir.startsWith(VIRTUAL_ROOT) || (directoryExists?.call(host, dir) ?? ts.sys.directoryExists(dir));
  host.fileExists = (file) => virtualSource(file, sources, named) !== undefined || fileExists.call(host, file);
  host.readFile = (file) => virtualSource(file, sources, named) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, shouldCreate) => {
    const text = virtualSource(file, sources, named);
    return text === undefined ? getSourceFile.call(host, file, language, onError, shouldCreate) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: placed.map((entry) => entry.file), options, host });
  for (const entry of placed) {
    const sourceFile = program.getSourceFile(entry.file);
    if (!sourceFile) throw new Error(`${entry.file} was not compiled`);
    diagnosticsByFile.set(entry.file, [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]);
  }
}, 180_000);

/** `page.md:LINE: message`, the line counted in the markdown file. */
function describeDiagnostic(entry: PlacedBlock, diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return `${entry.block.page}: ${message}`;
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  if (diagnostic.file.fileName !== entry.file) return `${diagnostic.file.fileName}:${line + 1}: ${message}`;
  const inBlock = line - entry.offset;
  const blockLines = entry.block.source.split('\n').length;
  const where = inBlock >= 0 && inBlock < blockLines ? `${entry.block.page}:${entry.block.line + 1 + inBlock}` : `prelude ${entry.block.prelude}`;
  return `${where}: TS${diagnostic.code} ${message}`;
}

describe('the TypeScript blocks of the documentation compile', () => {
  it('finds blocks in README.md and docs/', () => {
    expect(blocks.filter((block) => block.page === 'README.md').length).toBeGreaterThan(0);
    expect(blocks.filter((block) => block.page.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  for (const entry of placed) {
    it(`${entry.block.page}:${entry.block.line}${entry.block.prelude ? ` (prelude ${entry.block.prelude})` : ''}`, () => {
      const problems = (diagnosticsByFile.get(entry.file) ?? []).map((diagnostic) => describeDiagnostic(entry, diagnostic));
      expect(problems).toEqual([]);
    });
  }
});
