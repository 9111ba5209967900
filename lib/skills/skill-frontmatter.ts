import { parse } from 'yaml';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject } from '../protocol/wire.types.js';

/** The file that makes a folder a skill, and carries its frontmatter. */
export const SKILL_MANIFEST = 'SKILL.md';
/** Agent Skills naming: 1–64 lowercase letters, digits and single hyphens, no hyphen at either end. */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** The leading `---` YAML block of a SKILL.md (a BOM and CRLF line ends allowed). */
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Keys under `metadata` with this prefix are reserved for MCP extensions. */
const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/**
 * The frontmatter of a SKILL.md as the JSON object `skills/list` carries verbatim, after the SEP-2640
 * checks: `name` (the skill folder's name) and `description`. Throws a message for the author.
 */
export function readFrontmatter(markdown: string, folderName: string): JsonObject & { name: string; description: string } {
  const block = FRONTMATTER.exec(markdown);
  if (!block) throw new Error('does not begin with a --- YAML frontmatter block');
  let value: unknown;
  try {
    value = parse(block[1]);
  } catch (error) {
    throw new Error(`has frontmatter that is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isPlainObject(value)) throw new Error('has frontmatter that is not a YAML mapping');
  const { name, description, metadata } = value;
  if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    throw new Error(`needs a frontmatter "name" of 1-64 lowercase letters, digits and single hyphens; got ${JSON.stringify(name)}`);
  }
  if (name !== folderName) throw new Error(`names the skill "${name}", but its folder is "${folderName}": they must be equal`);
  if (typeof description !== 'string' || description.trim() === '' || description.length > 1024) {
    throw new Error('needs a frontmatter "description" of 1-1024 characters');
  }
  if (isPlainObject(metadata) && Object.keys(metadata).some((key) => key.startsWith(RESERVED_METADATA_PREFIX))) {
    throw new Error(`uses a metadata key under the reserved "${RESERVED_METADATA_PREFIX}" prefix`);
  }
  // The entry must equal the file's frontmatter; a round trip through JSON proves it is plain data.
  return JSON.parse(JSON.stringify(value)) as JsonObject & { name: string; description: string };
}
