#!/usr/bin/env node
// Proves the rules of .dependency-cruiser.cjs bite, beside `npm run lint:deps`, which proves lib/ keeps them:
//   1. the real tree passes: `npm run lint:deps` exits 0;
//   2. each fixture of test/deps-fixtures/lib/ gets exactly the verdict its `// expect:` line names: the one
//      rule it breaks (an error, so depcruise fails on it), or `allowed` (no violation at all). Stubs the
//      fixtures import carry no `expect:` line and must pass too. A folder cycle counts against each file
//      whose import crosses one of its edges;
//   3. every rule of the configuration is broken by at least one fixture, so a new rule comes with its own.
//
//   npm run lint:deps:selftest      node scripts/deps-selftest.mjs
//
// The fixtures never go near lib/: depcruise runs from test/deps-fixtures/, so their paths read `lib/...` and
// the rules match them as they would lib/'s own files, while node_modules resolves from the repository.
// They are type-checked with test/ (the two that import what is not installed say @ts-nocheck), jest skips
// them, and they do not ship (package.json "files" is dist/lib). One line per fixture and one summing up the
// rules; the exit code is 0 only when all hold.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.join(ROOT, 'test/deps-fixtures');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const EXPECT = /^\/\/ expect: (\S+)/m;
const RULES = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')).forbidden.map((rule) => rule.name);

const failures = [];
const check = (ok, line) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  if (!ok) failures.push(line);
};

// 1. The real tree.
const lint = spawnSync('npm', ['run', '--silent', 'lint:deps'], { cwd: ROOT, encoding: 'utf8' });
check(lint.status === 0, `lib/ passes npm run lint:deps${lint.status === 0 ? '' : `:\n${lint.stdout}${lint.stderr}`}`);

// 2. The fixtures, in one cruise: every violation names the file it comes from.
const cruise = spawnSync(
  process.execPath,
  [DEPCRUISE, 'lib', '--config', '../../.dependency-cruiser.cjs', '--ts-config', '../../tsconfig.json', '--output-type', 'json'],
  { cwd: FIXTURES, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (cruise.status !== 0) {
  console.error(`depcruise did not run in ${FIXTURES}:\n${cruise.stderr}`);
  process.exit(1);
}
const { modules, summary } = JSON.parse(cruise.stdout);
const imports = new Map(modules.map((m) => [m.source, m.dependencies.map((d) => d.module).join(', ')]));
const folderOf = (file) => path.posix.dirname(file);
const importedFolders = new Map(modules.map((m) => [m.source, new Set(m.dependencies.map((d) => folderOf(d.resolved)))]));
const violationsOf = (source) =>
  summary.violations.filter(
    (v) => v.from === source || (v.from === folderOf(source) && v.type === 'cycle' && importedFolders.get(source).has(v.to)),
  );
const proven = new Set();

for (const file of readdirSync(path.join(FIXTURES, 'lib'), { recursive: true }).filter((f) => f.endsWith('.ts')).sort()) {
  const source = `lib/${file.split(path.sep).join('/')}`;
  const expected = EXPECT.exec(readFileSync(path.join(FIXTURES, source), 'utf8'))?.[1];
  const fired = imports.has(source) ? violationsOf(source) : [];
  const verdict = fired.map((v) => `${v.rule.name} (${v.rule.severity})`).join(', ') || 'no violation';
  const line = `${source} → ${imports.get(source) || 'nothing'}`;
  if (!imports.has(source)) check(false, `${source}: not cruised`);
  else if (expected === undefined) {
    if (fired.length > 0) check(false, `${line} (a stub): ${verdict}`);
  } else if (expected === 'allowed') check(fired.length === 0, `${line}: allowed${fired.length > 0 ? `, yet ${verdict}` : ''}`);
  else {
    const ok = fired.length === 1 && fired[0].rule.severity === 'error' && fired[0].rule.name === expected;
    check(ok, `${line}: ${ok ? expected : `expected ${expected} (error), got ${verdict}`}`);
    if (ok) proven.add(expected);
  }
}

// 3. Every rule, proven by a fixture that breaks it.
const unproven = RULES.filter((rule) => !proven.has(rule));
check(unproven.length === 0, `${RULES.length - unproven.length} of ${RULES.length} rules proven${unproven.length > 0 ? `; no fixture breaks ${unproven.join(', ')}` : ''}`);

console.log(`deps-selftest: ${failures.length === 0 ? 'the rules bite and lib/ passes' : `${failures.length} failed`}`);
process.exit(failures.length === 0 ? 0 : 1);
