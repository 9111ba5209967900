import { readFileSync } from 'node:fs';
import { resolveDeclaredPath } from '../config/declaring-file.js';
import type { McpResourceOptions } from '../interfaces/handler-metadata.interface.js';
import { isPlainObject } from '../protocol/json-value.js';
import { APP_MIME_TYPE } from '../protocol/protocol.constants.js';
import type { JsonObject, ResourceContents, ResourceDescriptor, Tool } from '../protocol/wire.types.js';
import type { McpAppResourceOptions, McpUiLink, McpUiOptions } from './app.interfaces.js';

const UI_SCHEME = 'ui://';
/** The flat key older hosts read; the spec deprecates it in favour of `_meta.ui.resourceUri`. */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The `@McpResource()` options of an app resource: the app MIME type, `_meta.ui` from `ui`. Throws for a non-`ui://` URI. */
export function appResourceOptions(options: McpAppResourceOptions, source: string): McpResourceOptions {
  const { ui, _meta, ...resource } = options;
  if (!resource.uri?.startsWith(UI_SCHEME)) throw new Error(`${source}: an MCP App resource URI must start with ui://; got "${resource.uri}"`);
  return { ...resource, mimeType: APP_MIME_TYPE, ...(ui || _meta ? { _meta: { ..._meta, ...(ui ? { ui: ui as JsonObject } : {}) } } : {}) };
}

/** A tool's `_meta` with the link to its app (`ui.resourceUri`, and the deprecated flat key for older hosts). */
export function linkedToolMeta(meta: JsonObject | undefined, link: McpUiOptions, source: string): JsonObject {
  if (!link.resourceUri?.startsWith(UI_SCHEME)) throw new Error(`@McpUi() on ${source}: resourceUri must start with ui://; got "${link.resourceUri}"`);
  const ui = { resourceUri: link.resourceUri, ...(link.visibility ? { visibility: link.visibility } : {}) };
  return { ...meta, ui, [LEGACY_RESOURCE_URI_KEY]: link.resourceUri };
}

/**
 * The app resource `@McpUi({ html | file })` serves, with its fixed HTML (a file is read here, once,
 * at start-up); undefined when the link names a resource served elsewhere.
 */
export function inlineAppResource(link: McpUiLink, toolName: string, source: string): { options: McpResourceOptions; html: string } | undefined {
  if (link.html === undefined && link.file === undefined) return undefined;
  if (link.html !== undefined && link.file !== undefined) throw new Error(`@McpUi() on ${source}: give html or file, not both`);
  let html = link.html;
  if (link.file !== undefined) {
    const file = resolveDeclaredPath(link.file, link.declaredIn);
    try {
      html = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(`@McpUi() on ${source}: cannot read the app file "${String(link.file)}" (${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  const options = appResourceOptions({ name: toolName, ...link.resource, uri: link.resourceUri }, `@McpUi() on ${source}`);
  return { options, html: html! };
}

/** `_meta.ui` of an app resource on each content item that has none: hosts read it there first. */
export function withAppMeta(contents: ResourceContents[], definition: Pick<ResourceDescriptor, 'mimeType' | '_meta'>): ResourceContents[] {
  const ui = definition.mimeType === APP_MIME_TYPE ? definition._meta?.ui : undefined;
  if (!isPlainObject(ui)) return contents;
  return contents.map((item) => (isPlainObject(item._meta?.ui) ? item : { ...item, _meta: { ...item._meta, ui } }));
}

/** The `ui://` URI a tool links to, if any. */
export function linkedAppUri(tool: Tool): string | undefined {
  const ui = tool._meta?.ui;
  return isPlainObject(ui) && typeof ui.resourceUri === 'string' ? ui.resourceUri : undefined;
}

export const APP_LINK_MISSING = (tool: string, source: string, uri: string): string =>
  `Tool "${tool}" (${source}) links to the MCP App ${uri}, but no resource has that URI: ` +
  'declare it with @McpAppResource(), or serve it from the link with @McpUi({ html }) or @McpUi({ file })';
