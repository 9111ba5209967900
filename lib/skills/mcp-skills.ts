import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { stringify } from 'yaml';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { SkillCatalog, type GeneratedSkill } from './skill-catalog.js';
import type { McpSkillContent, McpSkillOptions } from './skill.decorator.js';
import { SKILL_NAME } from './skill-frontmatter.js';

/** Every file of every skill, SKILL.md aside (those are listed resources of their own). */
const SKILL_FILES_TEMPLATE = 'skill://{+path}';
const MANIFEST = 'SKILL.md';
/** A path segment a generated skill may use: no empty, `.`/`..`, hidden or separator-carrying segment. */
const SAFE_SEGMENT = /^(?!\.)[^/\\\0]+$/;

/** An `@McpSkill()` method found by discovery, run at start-up. @internal */
export interface SkillProducer {
  options: McpSkillOptions;
  source: string;
  produce(): unknown;
}

/**
 * Publishes the skills (SEP-2640) of `skills.directory` and of `@McpSkill()` methods at start-up:
 * reads them once (digests and sizes), lists each SKILL.md as a resource, and serves every skill file
 * through `resources/read` with the registry's ordinary resource machinery (guards and interceptors
 * apply). The `skills/*` methods read the catalog from here. Publishing waits for application
 * bootstrap, when discovery has handed over every `@McpSkill()` method. @internal
 */
@Injectable()
export class McpSkills implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');
  private readonly producers: SkillProducer[] = [];
  private published?: SkillCatalog;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
  ) {}

  /** The published catalog; undefined when the server publishes no skills (then the extension is not declared). */
  get catalog(): SkillCatalog | undefined {
    return this.published;
  }

  /** Called by discovery for each `@McpSkill()` method. */
  addProducer(producer: SkillProducer): void {
    this.producers.push(producer);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { directory } = this.settings.skills;
    const generated = await Promise.all(this.producers.map((producer) => generate(producer)));
    if (directory === undefined && generated.length === 0) return;
    const catalog = await SkillCatalog.load(directory, generated, this.logger);
    if (catalog.skills.length === 0) {
      this.logger.warn(`Skills: no skill (a folder with a SKILL.md) in "${directory}"; the skills extension is not declared`);
      return;
    }
    for (const manifest of catalog.manifests()) {
      this.registry.addResource(manifest, (context) => catalog.read(context.uri));
    }
    this.registry.addResourceTemplate(
      { uriTemplate: SKILL_FILES_TEMPLATE, name: 'skill-files', description: 'The files of the skills this server publishes (see skills/list)' },
      (_variables, context) => catalog.read(context.uri),
    );
    this.published = catalog;
    this.logger.log(`Published ${catalog.skills.length} skill(s)${directory === undefined ? '' : ` (folder "${directory}")`}`);
  }
}

/** Runs an `@McpSkill()` method and turns its result into files, the SKILL.md with its frontmatter first. */
async function generate({ options, source, produce }: SkillProducer): Promise<GeneratedSkill> {
  const fail = (why: string): never => {
    throw new Error(`@McpSkill() on ${source}: ${why}`);
  };
  if (!SKILL_NAME.test(options.name)) fail(`the name "${options.name}" must be 1-64 lowercase letters, digits and single hyphens`);
  const parents = options.path ? options.path.split('/') : [];
  if (!parents.every((segment) => SAFE_SEGMENT.test(segment) && segment !== '..')) fail(`the path "${options.path}" has an empty, hidden or ".." segment`);
  const content = (await produce()) as McpSkillContent;
  const given = typeof content === 'string' ? { [MANIFEST]: content } : content;
  if (given === null || typeof given !== 'object') fail('the method must return the SKILL.md body or an object of files');
  const files = new Map<string, Buffer>();
  const frontmatter = { ...options.frontmatter, name: options.name, description: options.description };
  const body = given[MANIFEST] ?? '';
  files.set(MANIFEST, Buffer.from(`---\n${stringify(frontmatter)}---\n\n${typeof body === 'string' ? body : Buffer.from(body).toString('utf8')}`, 'utf8'));
  for (const [relativePath, value] of Object.entries(given)) {
    if (relativePath === MANIFEST) continue;
    if (!relativePath.split('/').every((segment) => SAFE_SEGMENT.test(segment) && segment !== '..')) {
      fail(`the file "${relativePath}" has an empty, hidden or ".." segment`);
    }
    if (typeof value !== 'string' && !(value instanceof Uint8Array)) fail(`the file "${relativePath}" must be a string or a Uint8Array`);
    files.set(relativePath, typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value));
  }
  return { segments: [...parents, options.name], files, source };
}
