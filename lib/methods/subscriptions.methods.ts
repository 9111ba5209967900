import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { McpRegistry, type McpChange } from '../registry/mcp.registry.js';
import { coversUri, LIST_CHANGED_METHODS } from '../registry/change-notifications.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../protocol/mcp.error.js';
import { META_SUBSCRIPTION_ID, TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import { declaresTasks } from '../tasks/task-record.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { ClientCapabilities, JsonObject, Result } from '../protocol/wire.types.js';

/** The opt-ins of `subscriptions/listen` that this server honours. */
interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

const LIST_OPT_INS = { tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged' } as const;

/**
 * `subscriptions/listen` (2026-07-28): the request's own response stream stays open and carries
 * the acknowledgement first, then only the change notifications the client opted in to, each
 * tagged with the subscription id. The stream ends when the client closes it, or at shutdown with
 * a completion result.
 * @internal
 */
@Injectable()
export class SubscriptionsMethods implements OnModuleDestroy {
  private readonly open = new Set<() => void>();

  constructor(private readonly registry: McpRegistry) {}

  @RpcMethod('subscriptions/listen', { untimed: true })
  listen(call: McpCall, params: JsonObject): Promise<Result> {
    const filter = honoured(params.notifications, call.meta.clientCapabilities);
    const tag = { [META_SUBSCRIPTION_ID]: call.request.id };
    call.notify({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: tag, notifications: filter },
    });
    return new Promise<Result>((resolve) => {
      const subscription = this.registry.changes.subscribe((change) => {
        const notification = toNotification(change, filter);
        if (notification) call.notify({ jsonrpc: '2.0', method: notification.method, params: { ...notification.params, _meta: tag } });
      });
      const finish = () => {
        subscription.unsubscribe();
        this.open.delete(finish);
        resolve({ resultType: 'complete', _meta: tag });
      };
      if (call.signal.aborted) return finish();
      call.signal.addEventListener('abort', finish, { once: true });
      this.open.add(finish);
    });
  }

  /** At shutdown every stream gets its completion result, then closes. */
  onModuleDestroy(): void {
    for (const finish of [...this.open]) finish();
  }
}

/**
 * What of the client's opt-ins this server sends. Task status notifications (`taskIds`, tasks
 * extension) are never sent here, so never acknowledged; but a client that asks for them without
 * declaring the extension on this request is refused with -32021, as the extension requires.
 */
function honoured(notifications: unknown, capabilities: ClientCapabilities): SubscriptionFilter {
  if (!isPlainObject(notifications)) throw new InvalidParamsError('subscriptions/listen needs a "notifications" object');
  if ('taskIds' in notifications && !declaresTasks(capabilities)) {
    throw new MissingRequiredClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
  }
  const filter: SubscriptionFilter = {};
  if (notifications.toolsListChanged === true) filter.toolsListChanged = true;
  if (notifications.promptsListChanged === true) filter.promptsListChanged = true;
  if (notifications.resourcesListChanged === true) filter.resourcesListChanged = true;
  const uris = notifications.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) {
      throw new InvalidParamsError('"resourceSubscriptions" must be an array of URIs');
    }
    if (uris.length > 0) filter.resourceSubscriptions = [...new Set(uris)];
  }
  return filter;
}

function toNotification(change: McpChange, filter: SubscriptionFilter): { method: string; params: JsonObject } | undefined {
  if (change.kind === 'list') {
    return filter[LIST_OPT_INS[change.list]] ? { method: LIST_CHANGED_METHODS[change.list], params: {} } : undefined;
  }
  const subscribed = filter.resourceSubscriptions?.some((uri) => coversUri(uri, change.uri));
  return subscribed ? { method: 'notifications/resources/updated', params: { uri: change.uri } } : undefined;
}
