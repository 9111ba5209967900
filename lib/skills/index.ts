export { McpSkills } from './mcp-skills.js';
export { SkillCatalog, SKILL_LIMITS, type SkillEntry, type SkillResourceEntry } from './skill-catalog.js';
