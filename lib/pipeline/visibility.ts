import type { McpCall } from '../context/mcp-call.js';
import type { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';

/** An entry of a list (tools, prompts, resources, templates); `canList` when its list runs its guards (`hideWhenDenied`). */
export interface Listed {
  definition: { name: string };
  canList?: (invocation: McpInvocation) => Promise<boolean>;
}

/**
 * Whether the caller may see the entry: always, unless it is `hideWhenDenied`; then its guards decide,
 * run on a probe invocation (no arguments, no context; the method never runs). A list leaves out what
 * this denies, and a lookup by name answers it as an unknown name.
 */
export async function canSee(call: McpCall, entry: Listed, kind: McpHandlerKind): Promise<boolean> {
  if (!entry.canList) return true;
  return entry.canList({
    request: call.request,
    kind,
    name: entry.definition.name,
    probe: true,
    arguments: {},
    context: undefined as never,
    httpRequest: call.httpRequest,
  });
}
