import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpRegistry } from '../lib/index.js';
import { FeaturesSubscriptionsModule } from './src/features-subscriptions.fixture.js';
import { callMcp, rpc, standardHeaders, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { within } from './support/waiting.js';
import { assertMatchesDef, assertResultResponse, assertServerMessage } from './support/wire-schema.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A `subscriptions/listen` stream read incrementally: each SSE event is schema-checked and queued. */
class Listener {
  readonly messages: Json[] = [];
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private buffer = '';
  /** Settles when the stream has ended (or the test aborted it). */
  private pumping: Promise<void> = Promise.resolve();
  private ended = false;
  /** What went wrong reading the stream (a message off the schema, a broken connection): every read fails with it. */
  private failure?: unknown;
  status = 0;
  contentType = '';

  private constructor(readonly id: string | number) {}

  static async open(url: string, id: string | number, notifications: Record<string, unknown>): Promise<Listener> {
    const listener = new Listener(id);
    const body = rpc('subscriptions/listen', { notifications }, { id });
    const response = await fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: listener.controller.signal });
    listener.status = response.status;
    listener.contentType = response.headers.get('content-type') ?? '';
    listener.pumping = listener.pump(response.body!.getReader());
    return listener;
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let boundary: number;
        while ((boundary = this.buffer.indexOf('\n\n')) >= 0) {
          const event = this.buffer.slice(0, boundary);
          this.buffer = this.buffer.slice(boundary + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (!data) continue;
          const message = JSON.parse(data);
          assertServerMessage(message, { resultDef: 'SubscriptionsListenResult' });
          this.messages.push(message);
          this.wake();
        }
      }
    } catch (error) {
      // Only the test's own abort() may end the read early; anything else is a finding. (By name: fetch's
      // DOMException comes from another realm than jest's Error.)
      const aborted = this.controller.signal.aborted && (error as { name?: unknown } | undefined)?.name === 'AbortError';
      if (!aborted) this.failure = error;
    } finally {
      this.ended = true;
      this.wake();
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  private read = 0;

  private rethrow(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** The next message not yet taken, as soon as it arrives. */
  async next(): Promise<Json> {
    while (this.read >= this.messages.length) {
      this.rethrow();
      if (this.ended) throw new Error(`listener ${this.id}: stream ended, no further message`);
      await within(new Promise<void>((resolve) => this.waiters.push(resolve)), `the next message of listener ${this.id}`, () => this.messages);
    }
    this.rethrow();
    return this.messages[this.read++];
  }

  /** Messages received but not yet taken. */
  pending(): Json[] {
    this.rethrow();
    return this.messages.slice(this.read);
  }

  /**
   * Asserts that nothing arrived that is not taken yet: the server sends this listener a
   * resources/updated for `subscribedUri`, which must be the next message. One stream delivers in
   * order and the registry announces changes synchronously, so anything sent earlier came first.
   */
  async expectNothingBefore(registry: McpRegistry, subscribedUri: string): Promise<void> {
    expect(this.pending()).toEqual([]);
    registry.notifyResourceUpdated(subscribedUri);
    expect(await this.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: subscribedUri, _meta: { [SUBSCRIPTION_ID]: this.id } },
    });
  }

  /** Waits until the stream has ended. */
  async end(): Promise<void> {
    await within(this.pumping, `the end of listener ${this.id}'s stream`, () => this.messages);
    this.rethrow();
  }

  abort(): void {
    this.controller.abort();
  }
}

/** A resource each listener of the first suite subscribed to and the other did not: its updates are that listener's markers. */
const TOOLS_MARK = 'notes://watched';
const PROMPTS_MARK = 'notes://other';

describe('subscriptions/listen with two concurrent listeners', () => {
  let started: StartedApp;
  let registry: McpRegistry;
  let tools: Listener;
  let prompts: Listener;

  beforeAll(async () => {
    started = await startApp([FeaturesSubscriptionsModule]);
    registry = started.app.get(McpRegistry);
    tools = await Listener.open(started.url, 'listen-tools', {
      toolsListChanged: true,
      promptsListChanged: false,
      resourceSubscriptions: ['notes://watched', 'notes://watched'],
    });
    prompts = await Listener.open(started.url, 77, { promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['notes://other'] });
  });

  afterAll(async () => {
    tools?.abort();
    prompts?.abort();
    await started?.app.close();
  });

  it('advertises listChanged and subscribe', async () => {
    const response = await callMcp(started.url, 'server/discover');
    assertResultResponse(response.body, 'DiscoverResult');
    expect(response.body.result.capabilities).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  });

  it('answers each listen with an SSE stream whose first frame is the acknowledgement with the honoured filter', async () => {
    expect([tools.status, tools.contentType]).toEqual([200, 'text/event-stream']);
    expect([prompts.status, prompts.contentType]).toEqual([200, 'text/event-stream']);
    const ackTools = await tools.next();
    assertMatchesDef(ackTools, 'SubscriptionsAcknowledgedNotification');
    expect(ackTools).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: 'listen-tools' }, notifications: { toolsListChanged: true, resourceSubscriptions: ['notes://watched'] } },
    });
    const ackPrompts = await prompts.next();
    assertMatchesDef(ackPrompts, 'SubscriptionsAcknowledgedNotification');
    expect(ackPrompts).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { [SUBSCRIPTION_ID]: 77 },
        notifications: { promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['notes://other'] },
      },
    });
  });

  it('registry.addTool → tools/list_changed on the tools listener only; the tool is listed and callable', async () => {
    registry.addTool(
      { name: 'runtime-add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
      (args) => `sum ${Number(args.a) + Number(args.b)}`,
    );
    expect(await tools.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 'listen-tools' } },
    });
    const list = await callMcp(started.url, 'tools/list');
    expect(list.body.result.tools.map((tool: Json) => tool.name)).toEqual(['ping', 'runtime-add']);
    expect(list.body.result.tools[1]).toEqual({
      name: 'runtime-add',
      description: 'Adds two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    const call = await callMcp(started.url, 'tools/call', { name: 'runtime-add', arguments: { a: 2, b: 3 } });
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'sum 5' }]);
    const invalid = await callMcp(started.url, 'tools/call', { name: 'runtime-add', arguments: { a: 2 } });
    expect(invalid.body.result.isError).toBe(true);
    await prompts.expectNothingBefore(registry, PROMPTS_MARK);
  });

  it('registry.addPrompt → prompts/list_changed on the prompts listener only; the prompt is listed and gettable', async () => {
    registry.addPrompt(
      { name: 'runtime-prompt', description: 'Added at run time', arguments: [{ name: 'who', description: 'Who', required: true }] },
      (args) => `Hi ${args.who}`,
    );
    expect(await prompts.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 77 } },
    });
    const list = await callMcp(started.url, 'prompts/list');
    expect(list.body.result.prompts.map((prompt: Json) => prompt.name)).toEqual(['static-prompt', 'runtime-prompt']);
    expect(list.body.result.prompts[1]).toEqual({
      name: 'runtime-prompt',
      description: 'Added at run time',
      arguments: [{ name: 'who', description: 'Who', required: true }],
    });
    const get = await callMcp(started.url, 'prompts/get', { name: 'runtime-prompt', arguments: { who: 'Ada' } });
    expect(get.body.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }]);
    const missing = await callMcp(started.url, 'prompts/get', { name: 'runtime-prompt', arguments: {} });
    expect(missing.body.error.code).toBe(-32602);
    await tools.expectNothingBefore(registry, TOOLS_MARK);
  });

  it('notifyResourceUpdated(uri) → resources/updated only to the listener subscribed to it (and to a sub-path)', async () => {
    registry.notifyResourceUpdated('notes://watched');
    expect(await tools.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://watched', _meta: { [SUBSCRIPTION_ID]: 'listen-tools' } },
    });
    registry.notifyResourceUpdated('notes://watched/child.txt');
    expect(await tools.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://watched/child.txt', _meta: { [SUBSCRIPTION_ID]: 'listen-tools' } },
    });
    // A sibling that merely shares the prefix is not "under" the subscribed resource.
    registry.notifyResourceUpdated('notes://watchedness');
    registry.notifyResourceUpdated('notes://unrelated');
    await tools.expectNothingBefore(registry, TOOLS_MARK);
    await prompts.expectNothingBefore(registry, PROMPTS_MARK);
    registry.notifyResourceUpdated('notes://other');
    expect(await prompts.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://other', _meta: { [SUBSCRIPTION_ID]: 77 } },
    });
    await tools.expectNothingBefore(registry, TOOLS_MARK);
  });

  it('addResource / addResourceTemplate → resources/list_changed to the resources listener; both readable', async () => {
    registry.addResource({ uri: 'notes://runtime', name: 'runtime', description: 'Added at run time', mimeType: 'text/plain' }, (context) => `read ${context.uri}`);
    expect(await prompts.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 77 } },
    });
    registry.addResourceTemplate(
      { uriTemplate: 'runtime://{name}', name: 'runtime-template', description: 'A run-time template', cache: { ttlMs: 10 } },
      (variables) => `hello ${variables.name}`,
    );
    expect((await prompts.next()).method).toBe('notifications/resources/list_changed');

    const resources = await callMcp(started.url, 'resources/list');
    expect(resources.body.result.resources.map((resource: Json) => resource.uri)).toEqual(['notes://watched', 'notes://runtime']);
    const templates = await callMcp(started.url, 'resources/templates/list');
    expect(templates.body.result.resourceTemplates).toEqual([
      { uriTemplate: 'runtime://{name}', name: 'runtime-template', description: 'A run-time template' },
    ]);
    const readStatic = await callMcp(started.url, 'resources/read', { uri: 'notes://runtime' });
    expect(readStatic.body.result.contents).toEqual([{ uri: 'notes://runtime', mimeType: 'text/plain', text: 'read notes://runtime' }]);
    const readTemplate = await callMcp(started.url, 'resources/read', { uri: 'runtime://Ada%20L' });
    expect(readTemplate.body.result.contents).toEqual([{ uri: 'runtime://Ada%20L', text: 'hello Ada L' }]);
    expect(readTemplate.body.result.ttlMs).toBe(10);
    await tools.expectNothingBefore(registry, TOOLS_MARK);
  });

  it('remove* takes entries out of the lists, announces it, and they are no longer callable', async () => {
    expect(registry.removeTool('runtime-add')).toBe(true);
    expect((await tools.next()).method).toBe('notifications/tools/list_changed');
    expect(registry.removePrompt('runtime-prompt')).toBe(true);
    expect((await prompts.next()).method).toBe('notifications/prompts/list_changed');
    expect(registry.removeResource('notes://runtime')).toBe(true);
    expect((await prompts.next()).method).toBe('notifications/resources/list_changed');
    expect(registry.removeResourceTemplate('runtime://{name}')).toBe(true);
    expect((await prompts.next()).method).toBe('notifications/resources/list_changed');
    // Removing what is not there is a no-op: false, and nothing announced.
    expect(registry.removeTool('runtime-add')).toBe(false);

    expect((await callMcp(started.url, 'tools/list')).body.result.tools.map((tool: Json) => tool.name)).toEqual(['ping']);
    expect((await callMcp(started.url, 'prompts/list')).body.result.prompts.map((prompt: Json) => prompt.name)).toEqual(['static-prompt']);
    expect((await callMcp(started.url, 'resources/list')).body.result.resources.map((resource: Json) => resource.uri)).toEqual(['notes://watched']);
    expect((await callMcp(started.url, 'resources/templates/list')).body.result.resourceTemplates).toEqual([]);
    expect((await callMcp(started.url, 'tools/call', { name: 'runtime-add', arguments: { a: 1, b: 1 } })).body.error.code).toBe(-32602);
    expect((await callMcp(started.url, 'prompts/get', { name: 'runtime-prompt', arguments: { who: 'x' } })).body.error.code).toBe(-32602);
    expect((await callMcp(started.url, 'resources/read', { uri: 'notes://runtime' })).body.error).toEqual({
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'notes://runtime' },
    });
    expect((await callMcp(started.url, 'resources/read', { uri: 'runtime://x' })).body.error.data).toEqual({ uri: 'runtime://x' });
    await tools.expectNothingBefore(registry, TOOLS_MARK);
    await prompts.expectNothingBefore(registry, PROMPTS_MARK);
  });

  it('a duplicate run-time name is refused and announces nothing', async () => {
    expect(() => registry.addTool({ name: 'ping', description: 'clash' }, () => 'x')).toThrow('Duplicate MCP tool "ping"');
    await tools.expectNothingBefore(registry, TOOLS_MARK);
  });

  it('notifyListChanged reaches only the listeners of that list', async () => {
    registry.notifyListChanged('tools');
    expect((await tools.next()).method).toBe('notifications/tools/list_changed');
    registry.notifyListChanged('resources');
    expect((await prompts.next()).method).toBe('notifications/resources/list_changed');
    await tools.expectNothingBefore(registry, TOOLS_MARK);
    await prompts.expectNothingBefore(registry, PROMPTS_MARK);
  });

  it('after one client aborts, later notifications cause no trouble and the other listener and the server keep working', async () => {
    tools.abort();
    await tools.end();
    // The server learns of the abort on its own time and offers no event for it: whether these find
    // the subscription still there or gone, both must be harmless.
    registry.notifyListChanged('tools');
    registry.notifyResourceUpdated('notes://watched');
    registry.notifyListChanged('prompts');
    expect(await prompts.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/prompts/list_changed',
      params: { _meta: { [SUBSCRIPTION_ID]: 77 } },
    });
    const discover = await callMcp(started.url, 'server/discover');
    expect(discover.status).toBe(200);
    assertResultResponse(discover.body, 'DiscoverResult');
    const call = await callMcp(started.url, 'tools/call', { name: 'ping', arguments: {} });
    expect(call.body.result.content).toEqual([{ type: 'text', text: 'pong' }]);
  });
});

describe('subscriptions/listen filters and shutdown', () => {
  let started: StartedApp;
  let closed = false;

  beforeAll(async () => {
    started = await startApp([FeaturesSubscriptionsModule]);
  });

  afterAll(async () => {
    if (!closed) await started?.app.close();
  });

  it('an empty filter is acknowledged as {} and receives nothing', async () => {
    // An app of its own: its shutdown ends the stream with the completion result, so what came before that is all there was.
    const own = await startApp([FeaturesSubscriptionsModule]);
    const listener = await Listener.open(own.url, 'empty', { toolsListChanged: false, resourceSubscriptions: [] });
    expect(await listener.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: 'empty' }, notifications: {} },
    });
    const registry = own.app.get(McpRegistry);
    registry.notifyListChanged('tools');
    registry.notifyListChanged('prompts');
    registry.notifyListChanged('resources');
    registry.notifyResourceUpdated('notes://watched');
    await own.app.close();
    await listener.end();
    expect(listener.pending()).toEqual([expect.objectContaining({ id: 'empty', result: expect.objectContaining({ resultType: 'complete' }) })]);
  });

  it('a listen without a notifications object is -32602', async () => {
    const response = await callMcp(started.url, 'subscriptions/listen', {});
    expect(response.body.error.code).toBe(-32602);
    const badUris = await callMcp(started.url, 'subscriptions/listen', { notifications: { resourceSubscriptions: 'notes://watched' } });
    expect(badUris.body.error.code).toBe(-32602);
  });

  it('app.close() while a listener is open ends its stream with the completion result', async () => {
    const listener = await Listener.open(started.url, 5, { toolsListChanged: true });
    expect((await listener.next()).method).toBe('notifications/subscriptions/acknowledged');
    closed = true;
    await started.app.close();
    await listener.end();
    const [final] = listener.pending();
    expect(listener.pending()).toHaveLength(1);
    assertResultResponse(final, 'SubscriptionsListenResult');
    expect(final.id).toBe(5);
    expect(final.result.resultType).toBe('complete');
    // The subscription's metadata, with the server's identity as on every result (SubscriptionsListenResultMetaObject).
    expect(final.result._meta).toEqual({ [SUBSCRIPTION_ID]: 5, 'io.modelcontextprotocol/serverInfo': { name: 'features-subscriptions', version: '1.0.0' } });
  });
});
