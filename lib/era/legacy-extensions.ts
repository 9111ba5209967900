import { isPlainObject } from '../protocol/json-value.js';
import { TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import type { ClientCapabilities, JsonObject } from '../protocol/wire.types.js';

/**
 * Extensions defined only from 2026-07-28. The tasks extension "is not defined under the 2025-11-25
 * protocol version": a 2025 session's declaration of it enables nothing, and its requests proceed
 * as if the client had declared no task capability (SEP-2663, Backward Compatibility). The others
 * (skills, MCP Apps) are negotiated in `initialize` as SEP-2133 defined it for 2025 sessions.
 */
const MODERN_ONLY_EXTENSIONS: readonly string[] = [TASKS_EXTENSION];

/** What a 2025 session's requests count as declared: its `initialize` capabilities, less the extensions 2025 does not define. */
export function capabilitiesIn2025(declared: ClientCapabilities): ClientCapabilities {
  const extensions = declared.extensions;
  if (!isPlainObject(extensions) || !MODERN_ONLY_EXTENSIONS.some((key) => key in extensions)) return declared;
  const kept = Object.fromEntries(Object.entries(extensions as Record<string, JsonObject>).filter(([key]) => definedIn2025(key)));
  const { extensions: _declared, ...rest } = declared;
  return Object.keys(kept).length > 0 ? { ...rest, extensions: kept } : rest;
}

/** Whether a 2025 `initialize` result advertises a served extension: those 2025 defines. */
export function definedIn2025(extension: string): boolean {
  return !MODERN_ONLY_EXTENSIONS.includes(extension);
}
