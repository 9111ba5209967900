import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_UI_METADATA } from '../mcp.constants.js';
import { declaringDirectory } from '../config/declaring-file.js';
import type { McpAppResourceOptions, McpUiLink, McpUiOptions } from './app.interfaces.js';
import { appResourceOptions } from './mcp-apps.js';

/**
 * Marks a provider method as the reader of an MCP App (SEP-1865): an HTML page at a `ui://` URI
 * that hosts render in a sandboxed iframe. The method returns the HTML; it is served as
 * `text/html;profile=mcp-app` with `ui` (CSP, permissions, …) as `_meta.ui`. An `@McpResource()`
 * underneath: guards, interceptors and filters apply as to any resource.
 * @publicApi
 */
export const McpAppResource = (options: McpAppResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, appResourceOptions(options, `@McpAppResource(${JSON.stringify(options.uri)})`));

/**
 * Links an `@McpTool()` to the MCP App that renders its result (`_meta.ui.resourceUri` on the tool).
 * The app is an `@McpAppResource()` elsewhere, or is served from `html` / `file` given here. Start-up
 * fails when the linked resource does not exist. Keep the tool's `content` meaningful: hosts without
 * apps show only that; `structuredContent` is what the app gets.
 * @publicApi
 */
export const McpUi = (options: McpUiOptions): MethodDecorator =>
  SetMetadata(MCP_UI_METADATA, { ...options, declaredIn: declaringDirectory(import.meta.url) } satisfies McpUiLink);
