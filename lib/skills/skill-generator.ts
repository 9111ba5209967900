import { stringify } from 'yaml';
import type { GeneratedSkill } from './skill-catalog.js';
import type { McpSkillContent, McpSkillOptions } from './skill.decorator.js';
import { SKILL_MANIFEST as MANIFEST, SKILL_NAME } from './skill-frontmatter.js';

/** A path segment a generated skill may use: no empty, `.`/`..`, hidden or separator-carrying segment. */
const SAFE_SEGMENT = /^(?!\.)[^/\\\0]+$/;
const isSafePath = (relativePath: string): boolean => relativePath.split('/').every((segment) => SAFE_SEGMENT.test(segment));

/** An `@McpSkill()` method found by discovery, run at start-up. @internal */
export interface SkillProducer {
  options: McpSkillOptions;
  source: string;
  produce(): unknown;
}

/** Runs an `@McpSkill()` method and turns its result into files, the SKILL.md with its frontmatter first. */
export async function generateSkill({ options, source, produce }: SkillProducer): Promise<GeneratedSkill> {
  const fail = (why: string): never => {
    throw new Error(`@McpSkill() on ${source}: ${why}`);
  };
  if (!SKILL_NAME.test(options.name)) fail(`the name "${options.name}" must be 1-64 lowercase letters, digits and single hyphens`);
  if (options.path && !isSafePath(options.path)) fail(`the path "${options.path}" has an empty, hidden or ".." segment`);
  const parents = options.path ? options.path.split('/') : [];
  const content = (await produce()) as McpSkillContent;
  const given = typeof content === 'string' ? { [MANIFEST]: content } : content;
  if (given === null || typeof given !== 'object') fail('the method must return the SKILL.md body or an object of files');
  const files = new Map<string, Buffer>();
  const frontmatter = { ...options.frontmatter, name: options.name, description: options.description };
  const body = given[MANIFEST] ?? '';
  files.set(MANIFEST, Buffer.from(`---\n${stringify(frontmatter)}---\n\n${typeof body === 'string' ? body : Buffer.from(body).toString('utf8')}`, 'utf8'));
  for (const [relativePath, value] of Object.entries(given)) {
    if (relativePath === MANIFEST) continue;
    if (!isSafePath(relativePath)) {
      fail(`the file "${relativePath}" has an empty, hidden or ".." segment`);
    }
    if (typeof value !== 'string' && !(value instanceof Uint8Array)) fail(`the file "${relativePath}" must be a string or a Uint8Array`);
    files.set(relativePath, typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value));
  }
  return { segments: [...parents, options.name], files, source };
}
