/**
 * The oldest Node.js nest-mcp runs on (Nest 12's own dependencies declare 22.12+; this package uses
 * `util.getCallSites`). Imported first by the package's entry points, so an older Node stops here with
 * one line instead of 80 install warnings and odd failures later (on Node 20 most things load, then
 * break by timing).
 */
export const NODE_FLOOR = '22.12.0';

/** Whether `version` (`22.11.0`, `v20.20.2`) is older than `floor`. */
export function isBelowFloor(version: string, floor = NODE_FLOOR): boolean {
  const [have, need] = [version, floor].map((text) => text.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0));
  for (let i = 0; i < 3; i++) if (have[i] !== need[i]) return have[i]! < need[i]!;
  return false;
}

if (isBelowFloor(process.versions.node)) {
  process.stderr.write(`nest-mcp needs Node.js ${NODE_FLOOR} or newer; this is Node.js ${process.versions.node}. Install a current Node.js LTS.\n`);
  process.exit(1);
}
