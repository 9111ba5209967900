export { McpAppResource, McpUi } from './app.decorators.js';
export type { McpAppCsp, McpAppResourceOptions, McpAppResourceUi, McpUiOptions, McpUiVisibility } from './app.interfaces.js';
export { APP_LINK_MISSING, inlineAppResource, linkedAppUri, linkedToolMeta, withAppMeta } from './mcp-apps.js';
