// After tsc: the files beside the compiled code that it reads at run time, found relative to its own
// file (never the working directory): the playground's page, the sample's app and skills, the fixture's skills.
import { cpSync } from 'node:fs';

const ASSETS = [
  ['lib/playground/assets', 'dist/lib/playground/assets'],
  ['sample/apps', 'dist/sample/apps', (file) => !file.endsWith('.ts')],
  ['sample/skills', 'dist/sample/skills'],
  ['sample/conformance/skills', 'dist/sample/conformance/skills'],
];

for (const [from, to, keep = () => true] of ASSETS) cpSync(from, to, { recursive: true, filter: keep });
