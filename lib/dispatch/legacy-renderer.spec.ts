import { describe, expect, it } from '@jest/globals';
import type { Result } from '../protocol/wire.types.js';
import { LEGACY_ELICITATION_UNAVAILABLE, renderLegacyNotification, renderLegacyResult } from './legacy-renderer.js';

const modern = (value: object) => value as unknown as Result;

describe('renderLegacyResult', () => {
  it('drops 2026 vocabulary and keeps other _meta keys', () => {
    const rendered = renderLegacyResult('resources/list', modern({
      resultType: 'complete', ttlMs: 0, cacheScope: 'private', resources: [],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' }, 'x.example/keep': 1 },
    }));
    expect(rendered).toEqual({ resources: [], _meta: { 'x.example/keep': 1 } });
    expect(renderLegacyResult('prompts/list', modern({ resultType: 'complete', prompts: [], _meta: { 'io.modelcontextprotocol/serverInfo': {} } }))).toEqual({ prompts: [] });
  });

  it('wraps a non-object output schema and structured content as { result }', () => {
    const list = renderLegacyResult('tools/list', modern({
      resultType: 'complete',
      tools: [
        { name: 'a', inputSchema: { type: 'object' }, outputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', items: { type: 'string' } } },
        { name: 'b', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
      ],
    })) as unknown as { tools: Array<{ outputSchema: unknown }> };
    expect(list.tools[0].outputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'],
    });
    expect(list.tools[1].outputSchema).toEqual({ type: 'object' });
    expect(renderLegacyResult('tools/call', modern({ resultType: 'complete', content: [], structuredContent: ['x'] }))).toEqual({ content: [], structuredContent: { result: ['x'] } });
    expect(renderLegacyResult('tools/call', modern({ resultType: 'complete', content: [], structuredContent: { a: 1 } }))).toEqual({ content: [], structuredContent: { a: 1 } });
  });

  it('answers a question the handler asked with a clear error until 2025 elicitation lands', () => {
    const asked = modern({ resultType: 'input_required', inputRequests: {}, requestState: 's' });
    expect(renderLegacyResult('tools/call', asked)).toEqual({ content: [{ type: 'text', text: LEGACY_ELICITATION_UNAVAILABLE }], isError: true });
    expect(() => renderLegacyResult('prompts/get', asked)).toThrow(LEGACY_ELICITATION_UNAVAILABLE);
  });

  it('strips 2026 _meta keys from notifications', () => {
    expect(renderLegacyNotification({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, _meta: { 'io.modelcontextprotocol/x': 1 } } }))
      .toEqual({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
  });
});
