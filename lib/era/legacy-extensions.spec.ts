import { describe, expect, it } from '@jest/globals';
import { capabilitiesIn2025, definedIn2025 } from './legacy-extensions.js';

describe('extensions in a 2025 session', () => {
  it('drops a tasks extension declared at initialize (SEP-2663: not defined under 2025-11-25), keeping the rest', () => {
    const declared = {
      roots: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/tasks': {}, 'io.modelcontextprotocol/skills': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    };
    expect(capabilitiesIn2025(declared)).toEqual({
      roots: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/skills': {}, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(capabilitiesIn2025({ elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } })).toEqual({ elicitation: {} });
  });

  it('leaves capabilities without a 2026-only extension as they are', () => {
    const declared = { elicitation: {}, extensions: { 'io.modelcontextprotocol/ui': {} } };
    expect(capabilitiesIn2025(declared)).toBe(declared);
    expect(capabilitiesIn2025({})).toEqual({});
  });

  it('advertises skills and MCP Apps at initialize, never tasks', () => {
    expect(definedIn2025('io.modelcontextprotocol/skills')).toBe(true);
    expect(definedIn2025('io.modelcontextprotocol/ui')).toBe(true);
    expect(definedIn2025('io.modelcontextprotocol/tasks')).toBe(false);
  });
});
