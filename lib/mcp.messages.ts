/** Human-readable start-up and runtime messages, in one place. @internal */
export const DUPLICATE_HANDLER = (kind: string, key: string, first: string, second: string) =>
  `Duplicate MCP ${kind} "${key}": declared by ${first} and by ${second}. Each ${kind} must be unique; give one of them another name or URI.`;

export const INVALID_TOOL_NAME = (name: string, source: string) =>
  `Invalid MCP tool name "${name}" on ${source}: use 1–64 characters of A-Z, a-z, 0-9, "_", "-" and ".".`;

export const MISSING_DESCRIPTION = (kind: string, source: string) =>
  `The MCP ${kind} on ${source} needs a non-empty description: clients and models choose by it.`;

export const MIXED_ARGUMENT_STYLES = (source: string) =>
  `${source} mixes @McpArgs() with @McpArg(): take all arguments as one DTO, or each one by name.`;

export const EPHEMERAL_SECRET =
  'mocapi.mrtr.secret is not set: an ephemeral key encrypts requestState. In-flight elicitations will not ' +
  'survive a restart and cannot cross instances; set a base64 256-bit key (openssl rand -base64 32) in production.';

export const SIGNAL_SWALLOWED = (target: string) =>
  `${target} caught the elicitation signal and returned anyway; answering input_required. Rethrow errors for which isInputRequiredSignal() is true.`;

export const INVALID_HEADER_PARAM = (source: string, argument: string, reason: string) =>
  `Invalid header option on argument "${argument}" of ${source}: ${reason}.`;

export const INVALID_RESOURCE = (source: string, reason: string) => `Invalid MCP resource on ${source}: ${reason}.`;

export const DUPLICATE_ENDPOINT = (endpoint: string) =>
  `McpModule.forRoot() is imported more than once for the endpoint "${endpoint}": import it once, in the root module. ` +
  'It is global: any module can inject McpRegistry to add tools, prompts and resources at run time.';
