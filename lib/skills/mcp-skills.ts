import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { SkillCatalog } from './skill-catalog.js';
import type { SkillProducer } from './skill-generator.js';

/** Every file of every skill, SKILL.md aside (those are listed resources of their own). */
const SKILL_FILES_TEMPLATE = 'skill://{+path}';

/**
 * Publishes the skills (SEP-2640) of `skills.directory` and of `@McpSkill()` methods at start-up:
 * reads them once (digests and sizes), lists each SKILL.md as a resource, and serves every skill file
 * through `resources/read` as run-time resources of the registry (so, like every run-time entry, without
 * guards or interceptors: there is no provider method to enhance). The `skills/*` methods read the catalog from here. Publishing waits for application
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
    if (directory === undefined && this.producers.length === 0) return;
    // Loaded only by a server that publishes skills: they bring the YAML parser and the MIME-type table.
    const { generateSkill } = await import('./skill-generator.js');
    const { SkillCatalog } = await import('./skill-catalog.js');
    const generated = await Promise.all(this.producers.map((producer) => generateSkill(producer)));
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
