import type { McpCall } from '../context/mcp-call.js';
import type { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';

/**
 * The entries a list request may see: those without `hideWhenDenied`, and those whose guards allow
 * a probe invocation (run concurrently; the list keeps its order).
 */
export async function visibleEntries<T extends { definition: { name: string }; canList?: (invocation: McpInvocation) => Promise<boolean> }>(
  call: McpCall,
  entries: T[],
  kind: McpHandlerKind,
): Promise<T[]> {
  if (!entries.some((entry) => entry.canList)) return entries;
  const allowed = await Promise.all(
    entries.map((entry) =>
      entry.canList
        ? entry.canList({
            request: call.request,
            kind,
            name: entry.definition.name,
            probe: true,
            arguments: {},
            context: undefined as never,
            httpRequest: call.httpRequest,
          })
        : true,
    ),
  );
  return entries.filter((_, index) => allowed[index]);
}
