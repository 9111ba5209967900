import type { McpListKind } from './mcp.registry.js';

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
