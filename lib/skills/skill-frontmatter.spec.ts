import { describe, expect, it } from '@jest/globals';
import { readFrontmatter, SKILL_NAME } from './skill-frontmatter.js';

describe('SKILL.md frontmatter', () => {
  it('returns the YAML block as JSON, verbatim (BOM and CRLF allowed)', () => {
    const text = '\uFEFF---\r\nname: pdf-tools\r\ndescription: "Fill: forms"\r\nmetadata:\r\n  version: "2"\r\nallowed-tools: [Read, Write]\r\n---\r\n# Body\r\n';
    expect(readFrontmatter(text, 'pdf-tools')).toEqual({
      name: 'pdf-tools',
      description: 'Fill: forms',
      metadata: { version: '2' },
      'allowed-tools': ['Read', 'Write'],
    });
  });

  it.each([
    ['no block', '# title\n', 'does not begin with a --- YAML frontmatter block'],
    ['a list', '---\n- a\n---\n', 'is not a YAML mapping'],
    ['an empty description', '---\nname: x\ndescription: " "\n---\n', 'needs a frontmatter "description"'],
    ['another name', '---\nname: y\ndescription: d\n---\n', 'names the skill "y", but its folder is "x"'],
    ['a reserved metadata key', '---\nname: x\ndescription: d\nmetadata:\n  io.modelcontextprotocol/k: v\n---\n', 'reserved'],
  ])('refuses %s', (_case, text, message) => {
    expect(() => readFrontmatter(text, 'x')).toThrow(message);
  });

  it('follows the Agent Skills naming rules', () => {
    for (const name of ['a', 'pdf-tools', 'a1', 'x'.repeat(64)]) expect(SKILL_NAME.test(name)).toBe(true);
    for (const name of ['', '-a', 'a-', 'a--b', 'A', 'a_b', 'x'.repeat(65), '..']) expect(SKILL_NAME.test(name)).toBe(false);
  });
});
