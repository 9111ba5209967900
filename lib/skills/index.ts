export { McpSkills, type SkillProducer } from './mcp-skills.js';
export { SkillCatalog, SKILL_LIMITS, type SkillEntry, type SkillResourceEntry } from './skill-catalog.js';
export { McpSkill, type McpSkillContent, type McpSkillOptions } from './skill.decorator.js';
