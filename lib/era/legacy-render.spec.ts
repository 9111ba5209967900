import { describe, expect, it } from '@jest/globals';
import type { Result } from '../protocol/wire.types.js';
import { MissingRequiredClientCapabilityError, InvalidParamsError } from '../protocol/mcp.error.js';
import { asLegacyError, LEGACY_ELICITATION_UNAVAILABLE, legacyInputParams, renderLegacyNotification, renderLegacyRequest, renderLegacyResult } from './legacy-render.js';

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

  it('answers a question still outstanding after the last round a 2025 call may have with a clear error', () => {
    const asked = modern({ resultType: 'input_required', inputRequests: {}, requestState: 's' });
    expect(renderLegacyResult('tools/call', asked)).toEqual({ content: [{ type: 'text', text: LEGACY_ELICITATION_UNAVAILABLE }], isError: true });
    expect(() => renderLegacyResult('prompts/get', asked)).toThrow(LEGACY_ELICITATION_UNAVAILABLE);
  });

  it('strips 2026 _meta keys from notifications', () => {
    expect(renderLegacyNotification({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, _meta: { 'io.modelcontextprotocol/x': 1 } } }))
      .toEqual({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
  });

  it('sends -32021 (2026 only) to a 2025 client as -32600 naming the capability, and other errors unchanged', () => {
    const refused = asLegacyError(new MissingRequiredClientCapabilityError({ sampling: {} })).toJsonRpc();
    expect(refused).toEqual({
      code: -32600,
      message: 'Invalid Request: this request needs the client capability sampling, which the session did not declare at initialize',
      data: { requiredCapabilities: { sampling: {} } },
    });
    const other = new InvalidParamsError('bad');
    expect(asLegacyError(other)).toBe(other);
  });

  it('names a missing extension by its key, and answers a task-only tool as 2025-11-25 answers a call that needed task augmentation', () => {
    const ui = asLegacyError(new MissingRequiredClientCapabilityError({ extensions: { 'io.modelcontextprotocol/ui': {} } })).toJsonRpc();
    expect(ui.code).toBe(-32600);
    expect(ui.message).toBe('Invalid Request: this request needs the client capability io.modelcontextprotocol/ui, which the session did not declare at initialize');
    const task = asLegacyError(new MissingRequiredClientCapabilityError({ extensions: { 'io.modelcontextprotocol/tasks': {} } })).toJsonRpc();
    expect(task).toEqual({
      code: -32600,
      message: expect.stringMatching(/^Task augmentation required for tools\/call requests: this tool runs only as a task .* which a 2025 session cannot use$/),
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  it('gives URL elicitations the elicitationId 2025-11-25 requires, and strips 2026 _meta keys from questions', () => {
    const url = legacyInputParams({ method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/x' } } as never);
    expect(typeof url.elicitationId).toBe('string');
    const form = { method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } };
    expect(legacyInputParams(form as never)).toBe(form.params);
    expect(renderLegacyRequest({ jsonrpc: '2.0', id: 'q', method: 'roots/list', params: { _meta: { 'io.modelcontextprotocol/x': 1 } } })).toEqual({
      jsonrpc: '2.0', id: 'q', method: 'roots/list', params: {},
    });
  });
});
