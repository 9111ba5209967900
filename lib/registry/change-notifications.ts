import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { publishIfPossible, publishOnBus } from '../bus/bus-call.js';
import { MCP_BUS } from '../bus/bus.provider.js';
import type { McpBus } from '../bus/mcp-bus.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonValue } from '../protocol/wire.types.js';
import { McpRegistry, type McpListKind } from './mcp.registry.js';

/** The notification each list change is announced with (both eras). */
export const LIST_CHANGED_METHODS: Readonly<Record<McpListKind, string>> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
};

/** A subscription to `subscribed` covers an update of that resource or of anything below it (a file inside a folder). */
export function coversUri(subscribed: string, updated: string): boolean {
  return updated === subscribed || updated.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`);
}

/** Marks what runs for a change that came over the bus, or for an action run on every instance: not published again. */
const fromTheBus = new AsyncLocalStorage<true>();

const CHANGES = 'changes';
const ACTIONS = 'everywhere';

/**
 * Puts the run-time registry's changes on every instance. Each change made here (a run-time
 * addition or removal, `notifyResourceUpdated()`, `notifyListChanged()`) reaches this instance's
 * listeners at once and is published on the bus; every other instance replays it into
 * its own registry's change feed, so its `subscriptions/listen` streams and 2025 GET streams carry
 * it too: once per listener, as the publisher skips its own message and a replay is not
 * published again. A change made while the bus is unreachable reaches this instance only.
 *
 * What the change itself did stays on its instance: the registry is per process, so `addTool()`
 * on one instance adds the tool there only (its listeners everywhere are told the list changed).
 * To change every instance, run the change everywhere with `McpFleet`.
 * @internal
 */
@Injectable()
export class McpChangeFanOut implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly instance = randomUUID();
  private readonly logger = new Logger('McpBus');
  private local?: Subscription;

  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_BUS) private readonly bus: McpBus,
  ) {}

  /** Once the application has started: what start-up adds (skills, run-time entries) is not news to the other instances. */
  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(CHANGES, (message) => this.replay(message));
    this.local = this.registry.changes.subscribe((change) => {
      if (!fromTheBus.getStore()) publishIfPossible(this.bus, CHANGES, { from: this.instance, change });
    });
  }

  /** Stops publishing (the bus itself is closed at application shutdown). */
  onModuleDestroy(): void {
    this.local?.unsubscribe();
  }

  private replay(message: JsonValue): void {
    if (!isPlainObject(message) || message.from === this.instance || !isPlainObject(message.change)) return;
    const change = message.change;
    fromTheBus.run(true, () => {
      if (change.kind === 'resource' && typeof change.uri === 'string') this.registry.notifyResourceUpdated(change.uri);
      else if (change.kind === 'list' && typeof change.list === 'string' && Object.hasOwn(LIST_CHANGED_METHODS, change.list)) {
        this.registry.notifyListChanged(change.list as McpListKind);
      } else this.logger.warn('A change on the bus has an unknown shape; ignored');
    });
  }
}

/**
 * Runs an action on every instance sharing the bus, this one included: the plain way to change
 * what every instance offers (`McpRegistry` is per process). Register the action on every
 * instance at start-up with `on()`, then call `everywhere()` on any one of them.
 *
 * A change an action makes (`addTool()`, `notifyListChanged()`, …) is announced by each instance to
 * its own listeners only, once it is made there: every listener hears of it once, from the
 * instance whose registry changed.
 * @publicApi
 */
@Injectable()
export class McpFleet implements OnModuleInit {
  private readonly instance = randomUUID();
  private readonly logger = new Logger('McpBus');
  private readonly actions = new Map<string, (payload: JsonValue) => unknown>();

  constructor(@Inject(MCP_BUS) private readonly bus: McpBus) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(ACTIONS, (message) => {
      if (isPlainObject(message) && message.from !== this.instance && typeof message.action === 'string') this.run(message.action, message.payload ?? null);
    });
  }

  /** What this instance does when `action` is run everywhere (one handler per action). */
  on(action: string, handler: (payload: JsonValue) => unknown): void {
    if (this.actions.has(action)) throw new Error(`McpFleet: the action "${action}" already has a handler`);
    this.actions.set(action, handler);
  }

  /**
   * Runs `action` here, then on every other instance as the bus delivers it; resolves with how many
   * instances were sent it (this one included). Rejects with BusUnavailableError, running it
   * nowhere, when the bus cannot be reached.
   */
  async everywhere(action: string, payload: JsonValue = null): Promise<number> {
    if (!this.actions.has(action)) throw new Error(`McpFleet: no handler for the action "${action}" on this instance (register it with on())`);
    const receivers = await publishOnBus(this.bus, ACTIONS, { from: this.instance, action, payload });
    await this.run(action, payload);
    return Math.max(receivers, 1);
  }

  private async run(action: string, payload: JsonValue): Promise<void> {
    const handler = this.actions.get(action);
    if (!handler) return this.logger.warn(`McpFleet: no handler for the action "${action}" on this instance; ignored`);
    try {
      await fromTheBus.run(true, () => handler(payload));
    } catch (error) {
      this.logger.error(`McpFleet: the action "${action}" failed on this instance: ${(error as Error).message}`);
    }
  }
}
