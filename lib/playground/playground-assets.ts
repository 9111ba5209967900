import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One file of the page, held in memory (the page is small and never changes while the app runs). */
export interface PlaygroundAsset {
  contentType: string;
  body: Buffer;
  /** The Content-Security-Policy the file is served with, given the query it was asked with. */
  csp(query: URLSearchParams): string;
}

/**
 * The page's own policy: its script and styles come from its own path, it talks to the endpoint only,
 * and nothing inline runs. Images and audio of tool results arrive as `data:` URLs.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The domains an app resource declares in `_meta.ui.csp` (SEP-1865), as the app frame's query carries them. */
const APP_CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** An origin as CSP takes it (`https://cdn.example`, `https://*.example:8443`, `wss://…`): nothing that could add a directive. */
const CSP_ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?$/i;

/**
 * The policy of the host frame of MCP app (`ui://`) resources. The frame is loaded into an iframe
 * sandboxed without `allow-same-origin` (an opaque origin: it cannot reach the page, its token or the
 * endpoint) and writes the app's HTML, whose inline script and styles it must allow (its own small
 * script is inline too: an opaque origin fetches with `Origin: null`, which the Origin rules refuse).
 * As SEP-1865 asks, only the origins the app declares are allowed, each for its use; with none
 * declared it may reach no server at all. Anything in the query that is not an origin is dropped.
 */
export function appFrameCsp(query: URLSearchParams = new URLSearchParams()): string {
  const [connect, resource, frame, baseUri] = APP_CSP_KEYS.map((key) => query.getAll(key).filter((origin) => CSP_ORIGIN.test(origin)));
  const sources = (...list: string[]) => list.join(' ');
  return [
    "default-src 'none'",
    `script-src ${sources("'unsafe-inline'", ...resource)}`,
    `style-src ${sources("'unsafe-inline'", ...resource)}`,
    `img-src ${sources('data:', ...resource)}`,
    `media-src ${sources('data:', ...resource)}`,
    `font-src ${sources('data:', ...resource)}`,
    ...(connect.length > 0 ? [`connect-src ${sources(...connect)}`] : []),
    ...(frame.length > 0 ? [`frame-src ${sources(...frame)}`] : []),
    `base-uri ${baseUri.length > 0 ? sources(...baseUri) : "'self'"}`,
    "form-action 'none'",
    "frame-ancestors 'self'",
    // Sandboxed even when opened on its own or framed without the attribute.
    'sandbox allow-scripts',
  ].join('; ');
}

const pageCsp = (): string => PAGE_CSP;

const FILES: Record<string, { file: string; contentType: string; csp: PlaygroundAsset['csp'] }> = {
  '': { file: 'index.html', contentType: 'text/html; charset=utf-8', csp: pageCsp },
  'playground.js': { file: 'playground.js', contentType: 'text/javascript; charset=utf-8', csp: pageCsp },
  'app-host.js': { file: 'app-host.js', contentType: 'text/javascript; charset=utf-8', csp: pageCsp },
  'playground.css': { file: 'playground.css', contentType: 'text/css; charset=utf-8', csp: pageCsp },
  // Its policy depends on the app it shows (its `_meta.ui.csp`, in the query): see appFrameCsp.
  'app-frame.html': { file: 'app-frame.html', contentType: 'text/html; charset=utf-8', csp: appFrameCsp },
};

/** The page's path below the endpoint: `/mcp` → `/mcp/playground`. */
export function playgroundPath(endpoint: string): string {
  return `${endpoint === '/' ? '' : endpoint.replace(/\/$/, '')}/playground`;
}

let loaded: ReadonlyMap<string, PlaygroundAsset> | undefined;

/**
 * The files of the page by their name below the page's path (`''` is the page itself). They ship
 * beside this module (`assets/`, copied into `dist/lib/playground/` by the build) and are read once.
 */
export function playgroundAssets(): ReadonlyMap<string, PlaygroundAsset> {
  loaded ??= new Map(
    Object.entries(FILES).map(([name, { file, contentType, csp }]) => [
      name,
      { contentType, csp, body: readAsset(file) },
    ]),
  );
  return loaded;
}

function readAsset(file: string): Buffer {
  const path = fileURLToPath(new URL(`assets/${file}`, import.meta.url));
  try {
    return readFileSync(path);
  } catch (error) {
    // A build that compiled lib/ without copying its assets (the package's build does copy them).
    throw new Error(`the playground's file ${path} is missing: copy lib/playground/assets next to the compiled playground/ folder`, { cause: error });
  }
}
