export { McpSkills } from './mcp-skills.js';
export type { SkillProducer } from './skill-generator.js';
// Types only: McpSkills loads the catalog (and its YAML and MIME-type dependencies) when skills are published.
export type { SkillCatalog, SkillEntry, SkillResourceEntry } from './skill-catalog.js';
export { McpSkill, type McpSkillContent, type McpSkillOptions } from './skill.decorator.js';
