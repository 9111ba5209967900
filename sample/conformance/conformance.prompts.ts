import { Injectable } from '@nestjs/common';
import { embeddedText, image, McpArg, McpComplete, McpPrompt, PromptContext, type McpPromptContext } from 'nest-mcp';
import { PNG_BASE64 } from './fixture-data.js';

const ARG1_CANDIDATES = ['test-value-1', 'test-value-2', 'testing', 'other-value'];

/** The prompts of the conformance suite. */
@Injectable()
export class ConformancePrompts {
  @McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simplePrompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({ name: 'test_prompt_with_arguments', description: 'A prompt with two required arguments' })
  promptWithArguments(
    @McpArg('arg1', { description: 'First test argument' }) arg1: string,
    @McpArg('arg2', { description: 'Second test argument' }) arg2: string,
  ): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  /** completion-complete asks for `arg1` completions of the prompt above. */
  @McpComplete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string): string[] {
    return ARG1_CANDIDATES.filter((candidate) => candidate.startsWith(value));
  }

  @McpPrompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that embeds a resource' })
  promptWithEmbeddedResource(@McpArg('resourceUri', { description: 'URI of the resource to embed' }) resourceUri: string) {
    return [embeddedText(resourceUri, 'Embedded resource content for testing.', 'text/plain'), 'Please process the embedded resource above.'];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt that includes an image' })
  promptWithImage() {
    return [image(PNG_BASE64, 'image/png'), 'Please analyze the image above.'];
  }

  @McpPrompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for context through an input_required result' })
  async inputRequiredPrompt(@PromptContext() ctx: McpPromptContext): Promise<string> {
    const answer = await ctx.elicit('What context should the prompt use?', (schema) => schema.string('context', 'Context'), {
      key: 'user_context',
    });
    const context = answer.isAccepted() ? answer.getString('context', 'no context') : 'no context';
    return `Use this context: ${context}`;
  }
}
