/**
 * nest-mcp/testing: test an app's MCP tools, prompts and resources without writing JSON-RPC.
 * A second entry point of the package, so nothing of it loads with `nest-mcp` itself.
 * @publicApi
 */
import '../node-floor.js';
export { McpTest, type McpTestOptions, type McpTestTarget, type TestingModuleLike } from './mcp-test.js';
export { McpTestClient, type McpRequestOptions, type McpTestClientOptions, type McpTestEra } from './mcp-test-client.js';
export { McpClientError } from './mcp-client.error.js';
export type { InputAnswer, InputAnswerer, InputAnswers } from './input-answers.js';
