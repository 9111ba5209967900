#!/usr/bin/env node
// `prepack` / `postpack`: the packed package.json carries no `scripts`. They serve this repository only
// (build, tests, benchmarks) and name files the tarball lacks; npm would also list `prepare` as an install
// script awaiting approval in every app that installs the tarball.
//   node scripts/pack-manifest.mjs strip     keep a copy, then drop "scripts"
//   node scripts/pack-manifest.mjs restore   put the copy back
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const backup = new URL('../package.json.prepack', import.meta.url);

const [command] = process.argv.slice(2);
if (command === 'strip') {
  copyFileSync(manifest, backup);
  const { scripts, ...packed } = JSON.parse(readFileSync(manifest, 'utf8'));
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (command === 'restore') {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
