import { Injectable } from '@nestjs/common';
import {
  audio,
  embeddedText,
  image,
  McpArg,
  McpArgs,
  McpRegistry,
  McpTool,
  text,
  ToolContext,
  type CallToolResult,
  type JsonObject,
  type JsonSchemaObject,
  type McpToolContext,
} from 'nest-mcp';
import { PNG_BASE64, WAV_BASE64 } from './fixture-data.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pending `json-schema-2020-12` scenario checks that this schema comes back verbatim. */
const JSON_SCHEMA_2020_12_INPUT: JsonSchemaObject & { type: 'object' } = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/**
 * The plain (single round trip) tools of the conformance suite. `test_simple_text` must stay the
 * first method: it is the first entry of `tools/list`.
 */
@Injectable()
export class ConformanceTools {
  constructor(private readonly registry: McpRegistry) {}

  @McpTool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @McpTool({ name: 'test_image_content', description: 'Tests image content response' })
  imageContent() {
    return image(PNG_BASE64, 'image/png');
  }

  @McpTool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audioContent() {
    return audio(WAV_BASE64, 'audio/wav');
  }

  @McpTool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embeddedResource() {
    return embeddedText('test://embedded-resource', 'This is an embedded resource content.', 'text/plain');
  }

  @McpTool({ name: 'test_multiple_content_types', description: 'Tests response with multiple content types (text, image, resource)' })
  multipleContentTypes() {
    return [
      text('Multiple content types test:'),
      image(PNG_BASE64, 'image/png'),
      embeddedText('test://mixed-content-resource', JSON.stringify({ test: 'data', value: 123 }), 'application/json'),
    ];
  }

  @McpTool({ name: 'test_error_handling', description: 'Tests error response handling' })
  errorHandling(): CallToolResult {
    // A tool-level error (isError result), not a JSON-RPC error: that is what the scenario checks.
    return { resultType: 'complete', isError: true, content: [text('This tool intentionally returns an error for testing')] };
  }

  @McpTool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' })
  async toolWithProgress(@ToolContext() ctx: McpToolContext): Promise<string> {
    const progress = ctx.longProgress(100);
    // Short pauses so the notifications leave as separate SSE events before the result.
    for (const value of [0, 50, 100]) {
      progress.emit(value, `Completed step ${value} of 100`);
      if (value < 100) await pause(50);
    }
    const token = ctx.meta.progressToken;
    return token === undefined ? 'No progress token was given' : String(token);
  }

  @McpTool({ name: 'test_missing_capability', description: 'Tests a tool that requires the sampling client capability' })
  async missingCapability(@ToolContext() ctx: McpToolContext): Promise<string> {
    // The input-request primitive checks the client's declared capabilities first: without
    // `sampling` the module answers -32021 with requiredCapabilities { sampling: {} }.
    const answers = await ctx.requestInputs({
      sample: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 20 },
      },
    });
    return `The client sampled: ${JSON.stringify(answers.sample?.content ?? null)}`;
  }

  @McpTool({ name: 'test_streaming_elicitation', description: 'Tests that elicitation travels as an input_required result, not as a request on the stream' })
  async streamingElicitation(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit('What is your name?', (schema) => schema.string('name', 'Your name'), { key: 'user_name' });
    return answer.isAccepted() ? `Hello, ${answer.getString('name', 'stranger')}!` : 'No name given.';
  }

  @McpTool({ name: 'test_logging_tool', description: 'Tests that no log notifications are sent without a requested log level' })
  loggingTool(): string {
    return 'Logging tool finished; no log level was requested, so nothing was logged to the client.';
  }

  @McpTool({ name: 'test_trigger_tool_change', description: 'Announces a tools list change to listening clients' })
  triggerToolChange(): string {
    this.registry.notifyListChanged('tools');
    return 'Tools list change announced.';
  }

  @McpTool({ name: 'test_trigger_prompt_change', description: 'Announces a prompts list change to listening clients' })
  triggerPromptChange(): string {
    this.registry.notifyListChanged('prompts');
    return 'Prompts list change announced.';
  }

  @McpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tests that a JSON Schema 2020-12 input schema is served verbatim',
    inputSchema: JSON_SCHEMA_2020_12_INPUT,
  })
  jsonSchema202012(@McpArgs() args: JsonObject): string {
    return `Received: ${JSON.stringify(args)}`;
  }

  @McpTool({ name: 'test_x_mcp_header', description: 'Tests an argument mirrored into the Mcp-Param-Region header' })
  xMcpHeader(
    @McpArg('region', { description: 'Region to route to', header: 'Region' }) region: string,
    @McpArg('level', { description: 'An optional level', required: false, schema: { type: 'integer' } }) _level?: number,
  ): string {
    return `region=${region}`;
  }
}
