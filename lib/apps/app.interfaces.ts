import type { McpResourceOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * The origins an MCP App may reach; hosts build its Content-Security-Policy from them and allow
 * nothing else (empty: no external origin at all). @publicApi
 */
export interface McpAppCsp {
  /** fetch / XHR / WebSocket origins (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `style-src`, …); `https://*.example.com` allowed. */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** `base-uri` (default `'self'`). */
  baseUriDomains?: string[];
}

/** `_meta.ui` of an app resource (SEP-1865): what the host's sandboxed iframe allows. @publicApi */
export interface McpAppResourceUi {
  csp?: McpAppCsp;
  /** Browser permissions the app asks for; hosts may honour them. */
  permissions?: { camera?: object; microphone?: object; geolocation?: object; clipboardWrite?: object };
  /** A host-specific sandbox origin (see the host's documentation). */
  domain?: string;
  /** Whether the host should draw a border around the app. */
  prefersBorder?: boolean;
}

/**
 * Options of `@McpAppResource()`: an MCP App (an HTML page a host renders in a sandboxed iframe) at a
 * `ui://` URI, served as `text/html;profile=mcp-app`. @publicApi
 */
export interface McpAppResourceOptions extends Omit<McpResourceOptions, 'mimeType'> {
  /** `ui://…` */
  uri: string;
  /** CSP, permissions, sandbox domain, border: `_meta.ui` on the listing and on every read. */
  ui?: McpAppResourceUi;
}

/** Who may call a tool linked to an app: the model, the app (from its iframe), or both (default). @publicApi */
export type McpUiVisibility = 'model' | 'app';

/**
 * Options of `@McpUi()`: links a tool to the app that shows its result. With `html` or `file`, the
 * app resource is served from that fixed content too (its `name` and `ui` then describe it). @publicApi
 */
export interface McpUiOptions {
  /** The `ui://` URI of the app resource; start-up fails when no resource has it. */
  resourceUri: string;
  /** Default `['model', 'app']`. */
  visibility?: McpUiVisibility[];
  /** Serve the app from this HTML document. */
  html?: string;
  /**
   * Serve the app from this HTML file, read once at start-up: a `file:` URL (`new URL('./view.html',
   * import.meta.url)`), an absolute path, or a path relative to the file that declares the tool.
   */
  file?: string | URL;
  /** The served resource's descriptor (with `html` / `file`); its `name` defaults to the tool's. */
  resource?: Omit<McpAppResourceOptions, 'uri' | 'name'> & { name?: string };
}

/** What `@McpUi()` records: its options, and where the decorated tool is declared (for a relative `file`). @internal */
export interface McpUiLink extends McpUiOptions {
  declaredIn?: string;
}
