import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_ARG_OPTIONS_METADATA } from '../decorators/mcp-args.decorator.js';
import {
  MCP_COMPLETE_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_TOOL_METADATA,
  MCP_SKILL_METADATA,
  MCP_UI_METADATA,
} from '../mcp.constants.js';
import { MCP_PARAM_ARGS_METADATA } from '../invocation/nest-route-metadata.js';
import type {
  McpArgOptions,
  McpCompleteOptions,
  McpPromptMetadata,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpToolMetadata,
} from '../interfaces/handler-metadata.interface.js';
import type { HandlerMethod, McpParamMetadata } from '../definitions/handler-method.js';
import type { McpUiLink } from '../apps/app.interfaces.js';
import type { McpSkillOptions } from '../skills/skill.decorator.js';


/** All reads of MCP metadata go through here. @internal */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolMetadata(target: Function): McpToolMetadata | undefined {
    return this.read(MCP_TOOL_METADATA, target);
  }

  getPromptMetadata(target: Function): McpPromptMetadata | undefined {
    return this.read(MCP_PROMPT_METADATA, target);
  }

  getResourceMetadata(target: Function): McpResourceOptions | undefined {
    return this.read(MCP_RESOURCE_METADATA, target);
  }

  getResourceTemplateMetadata(target: Function): McpResourceTemplateOptions | undefined {
    return this.read(MCP_RESOURCE_TEMPLATE_METADATA, target);
  }

  getCompleteMetadata(target: Function): McpCompleteOptions | undefined {
    return this.read(MCP_COMPLETE_METADATA, target);
  }

  getUiMetadata(target: Function): McpUiLink | undefined {
    return this.read(MCP_UI_METADATA, target);
  }

  getSkillMetadata(target: Function): McpSkillOptions | undefined {
    return this.read(MCP_SKILL_METADATA, target);
  }

  /** What the definition factory needs to know about one method, read once. */
  getHandlerMethod(classRef: Function, prototype: object, methodName: string, source: string): HandlerMethod {
    return {
      source,
      params: this.getParams(classRef, methodName),
      argOptions: this.getArgOptions(classRef, methodName),
      paramTypes: this.getParamTypes(prototype, methodName),
      returnType: this.getReturnType(prototype, methodName),
    };
  }

  getParams(classRef: Function, methodName: string): McpParamMetadata[] {
    const raw: Record<string, { index: number; data?: unknown }> =
      Reflect.getMetadata(MCP_PARAM_ARGS_METADATA, classRef, methodName) ?? {};
    return Object.entries(raw)
      .map(([key, value]) => ({ index: value.index, type: Number(key.split(':')[0]), data: value.data }))
      .sort((a, b) => a.index - b.index);
  }

  getArgOptions(classRef: Function, methodName: string): Record<number, McpArgOptions> {
    return Reflect.getMetadata(MCP_ARG_OPTIONS_METADATA, classRef, methodName) ?? {};
  }

  getParamTypes(prototype: object, methodName: string): unknown[] {
    return Reflect.getMetadata('design:paramtypes', prototype, methodName) ?? [];
  }

  getReturnType(prototype: object, methodName: string): unknown {
    return Reflect.getMetadata('design:returntype', prototype, methodName);
  }

  private read<T>(key: string, target: Function): T | undefined {
    // Guard against non-function targets (getters, fields) the scanner may hand over.
    if (typeof target !== 'function') return undefined;
    return this.reflector.get<T>(key, target);
  }
}
