// The host half of MCP Apps (SEP-1865) in the playground. The app runs in an iframe sandboxed with
// `allow-scripts` only (an opaque origin); the page speaks JSON-RPC with it over postMessage, and only
// with that iframe's window: answers `ui/initialize`, sends the tool's input and result, and proxies
// the app's `tools/call` and `resources/read` to the server. Everything else is refused.

const APPS_PROTOCOL_VERSION = '2026-01-26';
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];

class AppRequestError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * The app's declared CSP domains (`_meta.ui.csp`; the content item's wins over the listing's): the
 * frame's URL carries them and the server builds the frame's Content-Security-Policy from them.
 */
export function appFrameSource(item, listed) {
  const ui = item?._meta?.ui ?? listed?._meta?.ui;
  const declared = ui?.csp && typeof ui.csp === 'object' ? ui.csp : {};
  const query = new URLSearchParams();
  const csp = {};
  for (const key of CSP_KEYS) {
    const domains = Array.isArray(declared[key]) ? declared[key].filter((domain) => typeof domain === 'string') : [];
    if (domains.length > 0) csp[key] = domains;
    for (const domain of domains) query.append(key, domain);
  }
  const search = query.toString();
  return { src: `playground/app-frame.html${search ? `?${search}` : ''}`, csp };
}

/**
 * Renders an app (its HTML, read from its `ui://` resource) in a sandboxed iframe and hosts it.
 * `call` is `tools/call` or `resources/read` to the server, resolving to the JSON-RPC response;
 * `tools` finds a tool's definition by name; `toolCall` ({ tool, arguments, result }) is the call
 * whose result the app shows, absent when the resource is read on its own.
 */
export function appFrame(html, { src, csp, hostInfo, call, tools, toolCall }) {
  const frame = document.createElement('iframe');
  frame.className = 'app';
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'MCP app';
  frame.src = src;
  const toApp = (message) => frame.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, '*');
  let rendered = false;
  let delivered = false;

  const requests = {
    'ui/initialize': (params) => ({
      protocolVersion: params?.protocolVersion === APPS_PROTOCOL_VERSION ? params.protocolVersion : APPS_PROTOCOL_VERSION,
      hostInfo,
      hostCapabilities: { serverTools: {}, serverResources: {}, sandbox: { csp } },
      hostContext: {
        ...(toolCall ? { toolInfo: { tool: toolCall.tool } } : {}),
        theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        platform: 'web',
      },
    }),
    ping: () => ({}),
    'tools/call': async (params) => {
      const tool = tools(params?.name);
      // Tools hidden from apps must be refused (SEP-1865 visibility).
      if (tool && Array.isArray(tool._meta?.ui?.visibility) && !tool._meta.ui.visibility.includes('app')) {
        throw new AppRequestError(-32602, `Tool ${params.name} is not available to apps`);
      }
      return forwarded(await call('tools/call', { name: params?.name, arguments: params?.arguments ?? {} }));
    },
    'resources/read': async (params) => forwarded(await call('resources/read', { uri: params?.uri })),
  };

  const notifications = {
    'ui/notifications/initialized': () => {
      if (!toolCall || delivered) return;
      delivered = true;
      toApp({ method: 'ui/notifications/tool-input', params: { arguments: toolCall.arguments } });
      toApp({ method: 'ui/notifications/tool-result', params: toolCall.result });
    },
    'ui/notifications/size-changed': (params) => {
      if (Number.isFinite(params?.height)) frame.style.height = `${Math.min(Math.max(Math.ceil(params.height), 40), 4000)}px`;
    },
  };

  const onMessage = async (event) => {
    if (!frame.isConnected) return window.removeEventListener('message', onMessage);
    // Only the app's own window is heard: not the page, not another frame, not another tab.
    if (event.source === null || event.source !== frame.contentWindow) return;
    const message = event.data;
    if (message?.type === 'app-frame-ready' && !rendered) {
      rendered = true;
      return frame.contentWindow.postMessage({ type: 'render-app', html }, '*');
    }
    if (message?.jsonrpc !== '2.0' || typeof message.method !== 'string') return;
    const isRequest = typeof message.id === 'string' || typeof message.id === 'number';
    if (!isRequest) return notifications[message.method]?.(message.params);
    const handler = Object.hasOwn(requests, message.method) ? requests[message.method] : undefined;
    try {
      if (!handler) throw new AppRequestError(-32601, `Method not found: ${message.method} (the playground does not host it)`);
      toApp({ id: message.id, result: await handler(message.params) });
    } catch (error) {
      toApp({ id: message.id, error: { code: error.code ?? -32603, message: error.message } });
    }
  };
  window.addEventListener('message', onMessage);
  return frame;
}

/** The server's answer to a proxied request, as the app gets it. */
function forwarded(reply) {
  if (reply.error) throw new AppRequestError(reply.error.code, reply.error.message);
  // Input rounds (MRTR) would need the playground's forms inside the app's call: not offered to apps.
  if (reply.result?.resultType === 'input_required') throw new AppRequestError(-32603, 'The server asks for input; the playground does not run input rounds for an app\'s calls');
  return reply.result;
}
