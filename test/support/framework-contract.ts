import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * `express 5.3.0, router 2.3.0`: the installed versions of `packages`, each resolved as the package before
 * it would resolve it (`router` as Express loads it), for a contract spec's failure to name them.
 */
export function installedVersions(...packages: string[]): string {
  let from = requireHere;
  return packages
    .map((name) => {
      const version = (from(`${name}/package.json`) as { version: string }).version;
      from = createRequire(from.resolve(`${name}/package.json`));
      return `${name} ${version}`;
    })
    .join(', ');
}

/** A check of one framework internal: throws, naming `versions`, when `holds` is false. */
export function contractOn(versions: string): (what: string, holds: boolean) => void {
  return (what, holds) => {
    if (!holds) throw new Error(`A framework internal nest-mcp reads no longer holds on ${versions}: ${what}`);
  };
}
