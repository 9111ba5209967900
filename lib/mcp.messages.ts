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
  'mocapi.mrtr.secret is not set: an ephemeral key encrypts requestState and 2025 session ids. In-flight elicitations ' +
  'and 2025 sessions will not survive a restart and cannot cross instances; set a base64 256-bit key (openssl rand -base64 32) in production.';

export const SIGNAL_SWALLOWED = (target: string) =>
  `${target} caught the elicitation signal and returned anyway; answering input_required. Rethrow errors for which isInputRequiredSignal() is true.`;

export const INVALID_HEADER_PARAM = (source: string, argument: string, reason: string) =>
  `Invalid header option on argument "${argument}" of ${source}: ${reason}.`;

export const INVALID_RESOURCE = (source: string, reason: string) => `Invalid MCP resource on ${source}: ${reason}.`;

export const DUPLICATE_ENDPOINT = (endpoint: string) =>
  `McpModule.forRoot() is imported more than once for the endpoint "${endpoint}": import it once, in the root module. ` +
  'It is global: any module can inject McpRegistry to add tools, prompts and resources at run time.';

// Start-up checks of generated schemas: a hole lets any value through, unseen by the author.
export const UNDECORATED_PARAMETER = (source: string, position: number, type: string) =>
  `Parameter ${position} (${type}) of ${source} has no parameter decorator: it is not in the input schema and is always undefined. ` +
  `Take it with @McpArg('name') (optional: @McpArg('name', { required: false })) or @McpArgs(), or inject the context with @ToolContext() and the like.`;

const ANY_VALUE = 'accepts any value (schema {}): its type (a union, object, any or unknown) says nothing JSON Schema can check';
const ANY_ITEMS = 'accepts arrays of anything: TypeScript keeps no item type at run time';

export const ANY_VALUE_ARGUMENT = (source: string, name: string) =>
  `Argument "${name}" of ${source} ${ANY_VALUE}. State its schema: @McpArg('${name}', { schema: { type: 'object' } }), with anyOf for a union or enum for literals.`;

export const ANY_VALUE_PROPERTY = (source: string, dto: string, property: string) =>
  `Property "${property}" of ${dto} (in ${source}) ${ANY_VALUE}. State its type: @IsObject(), @IsString(), ... or @McpField({ type: 'object' }), with anyOf for a union.`;

export const UNTYPED_ARRAY_ARGUMENT = (source: string, name: string) =>
  `Argument "${name}" of ${source} ${ANY_ITEMS}. Name the item type: @McpArg('${name}', { items: String }) (or a DTO class).`;

export const UNTYPED_ARRAY_PROPERTY = (source: string, dto: string, property: string) =>
  `Property "${property}" of ${dto} (in ${source}) ${ANY_ITEMS}. Name the item type: @IsString({ each: true }), ` +
  `@ValidateNested({ each: true }) @Type(() => Item), or @McpField({ items: { type: 'string' } }).`;

export const EMPTY_DTO_SCHEMA = (source: string, dto: string, role: 'input' | 'output') =>
  `${dto}, the ${role} of ${source}, has no decorated property, so its ${role}Schema says nothing about its properties. ` +
  `Decorate them with class-validator decorators or @McpField().`;
