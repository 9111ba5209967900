import { SetMetadata } from '@nestjs/common';
import { MCP_SKILL_METADATA } from '../mcp.constants.js';

/** Options of `@McpSkill()`: the skill's frontmatter and where it sits. @publicApi */
export interface McpSkillOptions {
  /** The skill's name: 1–64 lowercase letters, digits and single hyphens; the last segment of its URI. */
  name: string;
  /** What the skill does and when to use it (1–1024 characters). */
  description: string;
  /** Folders above the skill: `acme/billing` serves `skill://acme/billing/<name>/SKILL.md`. */
  path?: string;
  /** More frontmatter (`license`, `metadata`, `allowed-tools`, …), written into the SKILL.md verbatim. */
  frontmatter?: Record<string, unknown>;
}

/**
 * What an `@McpSkill()` method returns: the SKILL.md body (the markdown after the frontmatter), or
 * the skill's files by relative path, with `SKILL.md` for the body. @publicApi
 */
export type McpSkillContent = string | Record<string, string | Uint8Array>;

/**
 * Publishes a skill (SEP-2640) made by a provider method. The method runs once, at start-up (it may
 * be async); its files are held in memory, with their digests, and served like those of
 * `skills.directory`, which they join.
 * @publicApi
 */
export const McpSkill = (options: McpSkillOptions): MethodDecorator => SetMetadata(MCP_SKILL_METADATA, options);
