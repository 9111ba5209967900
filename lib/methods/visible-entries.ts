import type { McpCall } from '../context/mcp-call.js';
import type { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import { canSee, type Listed } from '../pipeline/visibility.js';

/**
 * The entries a list request may see: those without `hideWhenDenied`, and those whose guards allow
 * a probe invocation (run concurrently; the list keeps its order).
 */
export async function visibleEntries<T extends Listed>(call: McpCall, entries: T[], kind: McpHandlerKind): Promise<T[]> {
  if (!entries.some((entry) => entry.canList)) return entries;
  const allowed = await Promise.all(entries.map((entry) => canSee(call, entry, kind)));
  return entries.filter((_, index) => allowed[index]);
}
