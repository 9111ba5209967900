export { McpTool } from './mcp-tool.decorator.js';
export { McpPrompt } from './mcp-prompt.decorator.js';
export { McpResource, McpResourceTemplate } from './mcp-resource.decorator.js';
export { McpComplete } from './mcp-complete.decorator.js';
export { McpArg, McpArgs } from './mcp-args.decorator.js';
export { Elicitor, McpRequest, PromptContext, ResourceContext, ToolContext } from './context.decorators.js';
export type { McpHandlerArgs, McpToolReturn, McpTypedMethodDecorator, McpTypedToolResult } from './typed-handler.types.js';
