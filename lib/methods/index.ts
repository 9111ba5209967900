import { CompletionMethods } from './completion.methods.js';
import { DiscoverMethods } from './discover.methods.js';
import { PromptsMethods } from './prompts.methods.js';
import { ResourcesMethods } from './resources.methods.js';
import { SkillsMethods } from './skills.methods.js';
import { SubscriptionsMethods } from './subscriptions.methods.js';
import { TasksMethods } from './tasks.methods.js';
import { ToolsMethods } from './tools.methods.js';

/** The method families; each declares the JSON-RPC methods it serves with `@RpcMethod()`. @internal */
export const MCP_METHOD_FAMILIES = [
  DiscoverMethods,
  ToolsMethods,
  PromptsMethods,
  ResourcesMethods,
  CompletionMethods,
  SubscriptionsMethods,
  TasksMethods,
  SkillsMethods,
];

export { MCP_RPC_METHOD_METADATA, type RpcEra, type RpcMethodOptions } from './rpc-method.decorator.js';
