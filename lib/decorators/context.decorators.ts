import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import { createMcpParamDecorator } from './param.utils.js';

const contextDecorator = createMcpParamDecorator(McpParamtype.CONTEXT);
const elicitorDecorator = createMcpParamDecorator(McpParamtype.ELICITOR);
const requestDecorator = createMcpParamDecorator(McpParamtype.REQUEST);

/**
 * Injects the `McpToolContext` of the running call: progress emitters, elicitation, client info,
 * capabilities and an `AbortSignal`. Never part of the input schema.
 * @publicApi
 */
export const ToolContext = (): ParameterDecorator => contextDecorator();

/** Injects the `McpPromptContext` of a `prompts/get` call. @publicApi */
export const PromptContext = (): ParameterDecorator => contextDecorator();

/** Injects the `McpResourceContext` of a `resources/read` call. @publicApi */
export const ResourceContext = (): ParameterDecorator => contextDecorator();

/** Injects the `McpElicitor` of the running tool, prompt or resource handler. @publicApi */
export const Elicitor = (): ParameterDecorator => elicitorDecorator();

/** Injects the JSON-RPC request being served. @publicApi */
export const McpRequest = (): ParameterDecorator => requestDecorator();
