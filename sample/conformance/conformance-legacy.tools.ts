import { Injectable } from '@nestjs/common';
import { McpArg, McpTool, ToolContext, type McpToolContext } from 'nest-mcp';
import { sampledText } from './conformance-input.tools.js';

/** Echoes an elicitation answer the way the scenarios read it: action and content as text. */
function describeAnswer(answer: unknown): string {
  const { action, content } = (answer ?? {}) as { action?: unknown; content?: unknown };
  return `User response: action=${String(action)}, content=${JSON.stringify(content ?? {})}`;
}

/**
 * The 2025-11-25 scenarios that ask the client during a call (tools-call-elicitation,
 * elicitation-sep1034-defaults, elicitation-sep1330-enums, tools-call-sampling). They use the
 * low-level input-request primitive: over a 2025 session each question becomes a server→client
 * request on the call's stream; over 2026-07-28 an input_required round. Sampling has no helper of
 * its own (a deprecated feature), so it is reached only this way.
 */
@Injectable()
export class ConformanceLegacyTools {
  @McpTool({ name: 'test_elicitation', description: 'Asks the user a question through elicitation' })
  async elicitation(@McpArg('message', { description: 'The question to ask' }) message: string, @ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      answer: {
        method: 'elicitation/create',
        params: { message, requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "The user's response" } } } },
      },
    });
    return describeAnswer(answers.answer);
  }

  @McpTool({ name: 'test_elicitation_sep1034_defaults', description: 'Elicitation whose fields all carry default values (SEP-1034)' })
  async defaults(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      answer: {
        method: 'elicitation/create',
        params: {
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
          },
        },
      },
    });
    return describeAnswer(answers.answer);
  }

  @McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Elicitation with every enum shape (SEP-1330)' })
  async enums(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      answer: {
        method: 'elicitation/create',
        params: {
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                description: 'Titled single-select',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: { type: 'string', description: 'Legacy titled enum', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
              untitledMulti: { type: 'array', description: 'Untitled multi-select', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
              titledMulti: {
                type: 'array',
                description: 'Titled multi-select',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
          },
        },
      },
    });
    return describeAnswer(answers.answer);
  }

  @McpTool({ name: 'test_sampling', description: "Asks the client's model to answer a prompt (sampling)" })
  async sampling(@McpArg('prompt', { description: 'The prompt for the model' }) prompt: string, @ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      completion: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
      },
    });
    return `LLM response: ${sampledText(answers.completion)}`;
  }
}
