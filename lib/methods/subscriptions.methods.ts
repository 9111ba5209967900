import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { McpRegistry, type McpChange } from '../registry/mcp.registry.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { META_SUBSCRIPTION_ID } from '../protocol/protocol.constants.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';

/** The opt-ins of `subscriptions/listen` that this server honours. */
interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

const LIST_NOTIFICATIONS = {
  tools: ['toolsListChanged', 'notifications/tools/list_changed'],
  prompts: ['promptsListChanged', 'notifications/prompts/list_changed'],
  resources: ['resourcesListChanged', 'notifications/resources/list_changed'],
} as const;

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
    const filter = honoured(params.notifications);
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

function honoured(notifications: unknown): SubscriptionFilter {
  if (!isPlainObject(notifications)) throw new InvalidParamsError('subscriptions/listen needs a "notifications" object');
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
    const [key, method] = LIST_NOTIFICATIONS[change.list];
    return filter[key] ? { method, params: {} } : undefined;
  }
  // An update of the subscribed resource or of anything below it (a file inside a folder).
  const subscribed = filter.resourceSubscriptions?.some(
    (uri) => change.uri === uri || change.uri.startsWith(uri.endsWith('/') ? uri : `${uri}/`),
  );
  return subscribed ? { method: 'notifications/resources/updated', params: { uri: change.uri } } : undefined;
}
