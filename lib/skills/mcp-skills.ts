import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { SkillCatalog } from './skill-catalog.js';

/** Every file of every skill, SKILL.md aside (those are listed resources of their own). */
const SKILL_FILES_TEMPLATE = 'skill://{+path}';

/**
 * Publishes the skills of `skills.directory` (SEP-2640) at start-up: reads the folder once (digests
 * and sizes), lists each SKILL.md as a resource, and serves every skill file through `resources/read`
 * with the registry's ordinary resource machinery (guards and interceptors apply). The
 * `skills/*` methods read the catalog from here. @internal
 */
@Injectable()
export class McpSkills implements OnModuleInit {
  private readonly logger = new Logger('McpModule');
  private published?: SkillCatalog;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
  ) {}

  /** The published catalog; undefined when the server publishes no skills (then the extension is not declared). */
  get catalog(): SkillCatalog | undefined {
    return this.published;
  }

  async onModuleInit(): Promise<void> {
    const { directory } = this.settings.skills;
    if (!directory) return;
    const catalog = await SkillCatalog.load(directory, this.logger);
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
    this.logger.log(`Published ${catalog.skills.length} skill(s) from "${directory}"`);
  }
}
