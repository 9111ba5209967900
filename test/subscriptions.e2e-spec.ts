import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpRegistry } from '../lib/index.js';
import { FeaturesSubscriptionsModule } from './src/features-subscriptions.fixture.js';
import { callMcp, rpc, standardHeaders, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertMatchesDef, assertResultResponse, assertServerMessage } from './support/wire-schema.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A `subscriptions/listen` stream read incrementally: each SSE event is schema-checked and queued. */
class Listener {
  readonly messages: Json[] = [];
  ended = false;
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private buffer = '';
  status = 0;
  contentType = '';

  private constructor(readonly id: string | number) {}

  static async open(url: string, id: string | number, notifications: Record<string, unknown>): Promise<Listener> {
    const listener = new Listener(id);
    const body = rpc('subscriptions/listen', { notifications }, { id });
    const response = await fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: listener.controller.signal });
    listener.status = response.status;
    listener.contentType = response.headers.get('content-type') ?? '';
    void listener.pump(response.body!.getReader());
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
    } catch {
      // aborted by the test
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

  /** The next message not yet taken; fails after `timeoutMs`. */
  async next(timeoutMs = 2000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.messages.length) {
      if (this.ended) throw new Error(`listener ${this.id}: stream ended, no further message`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`listener ${this.id}: no message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages[this.read++];
  }

  /** Messages received but not yet taken. */
  pending(): Json[] {
    return this.messages.slice(this.read);
  }

  /** Waits until the stream ends (or fails after `timeoutMs`). */
  async end(timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error(`listener ${this.id}: stream still open`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  abort(): void {
    this.controller.abort();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets notifications that might (wrongly) be sent arrive before asserting their absence. */
const SETTLE_MS = 150;

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
    await sleep(SETTLE_MS);
    expect(prompts.pending()).toEqual([]);
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
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
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
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
    expect(prompts.pending()).toEqual([]);
    registry.notifyResourceUpdated('notes://other');
    expect(await prompts.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'notes://other', _meta: { [SUBSCRIPTION_ID]: 77 } },
    });
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
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
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
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
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
    expect(prompts.pending()).toEqual([]);
  });

  it('a duplicate run-time name is refused and announces nothing', async () => {
    expect(() => registry.addTool({ name: 'ping', description: 'clash' }, () => 'x')).toThrow('Duplicate MCP tool "ping"');
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
  });

  it('notifyListChanged reaches only the listeners of that list', async () => {
    registry.notifyListChanged('tools');
    expect((await tools.next()).method).toBe('notifications/tools/list_changed');
    registry.notifyListChanged('resources');
    expect((await prompts.next()).method).toBe('notifications/resources/list_changed');
    await sleep(SETTLE_MS);
    expect(tools.pending()).toEqual([]);
    expect(prompts.pending()).toEqual([]);
  });

  it('after one client aborts, later notifications cause no trouble and the other listener and the server keep working', async () => {
    tools.abort();
    await tools.end();
    await sleep(50);
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
    const listener = await Listener.open(started.url, 'empty', { toolsListChanged: false, resourceSubscriptions: [] });
    expect(await listener.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: 'empty' }, notifications: {} },
    });
    const registry = started.app.get(McpRegistry);
    registry.notifyListChanged('tools');
    registry.notifyListChanged('prompts');
    registry.notifyListChanged('resources');
    registry.notifyResourceUpdated('notes://watched');
    await sleep(SETTLE_MS);
    expect(listener.pending()).toEqual([]);
    listener.abort();
    await listener.end();
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
    expect(final.result._meta[SUBSCRIPTION_ID]).toBe(5);
  });
});
