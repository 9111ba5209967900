import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as util from 'node:util';

/** `util.getCallSites` (Node 22.12+; not in the @types/node this package builds with). */
type CallSites = (frames: number) => Array<{ scriptName: string }>;
const getCallSites = (util as unknown as { getCallSites?: CallSites }).getCallSites;

const HERE = fileURLToPath(import.meta.url);

/**
 * The directory of the user's source file that called a function of `calleeUrl` (the decorator's or
 * `forRoot`'s module): a relative path the user wrote in that file resolves from there, whatever the
 * working directory the process was started in (desktop clients start stdio servers from their own).
 * Undefined when no caller file is known (code evaluated from a string).
 */
export function declaringDirectory(calleeUrl: string): string | undefined {
  const callee = asPath(calleeUrl);
  for (const site of getCallSites?.(8) ?? []) {
    const file = asPath(site.scriptName);
    if (file !== undefined && file !== HERE && file !== callee) return path.dirname(file);
  }
  return undefined;
}

/** Resolves a path the user gave in code: a `file:` URL, an absolute path, or one relative to `base` (else the working directory). */
export function resolveDeclaredPath(given: string | URL, base: string | undefined): string {
  if (given instanceof URL || given.startsWith('file:')) return fileURLToPath(given);
  return path.resolve(base ?? '', given);
}

function asPath(scriptName: string): string | undefined {
  if (scriptName.startsWith('file:')) return fileURLToPath(scriptName);
  return path.isAbsolute(scriptName) ? scriptName : undefined;
}
