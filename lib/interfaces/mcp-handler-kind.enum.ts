/** The kinds of MCP handlers a provider method can be. @publicApi */
export enum McpHandlerKind {
  TOOL = 'tool',
  PROMPT = 'prompt',
  RESOURCE = 'resource',
  RESOURCE_TEMPLATE = 'resource_template',
}
