/** What an MCP parameter decorator injects. Values are far from Nest's RouteParamtypes. @internal */
export enum McpParamtype {
  /** All arguments, as a DTO instance or plain object. */
  ARGS = 100,
  /** One named argument. */
  ARG = 101,
  /** The tool, prompt or resource context. */
  CONTEXT = 102,
  /** The elicitor (the context seen through its elicitation face). */
  ELICITOR = 103,
  /** The raw MCP request (JSON-RPC). The HTTP request is Nest's own `@Req()`. */
  REQUEST = 104,
}
