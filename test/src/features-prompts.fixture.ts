import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { image, McpArg, McpArgs, McpField, McpModule, McpPrompt, PromptContext, text, type McpPromptContext } from '../../lib/index.js';

/** A 1×1 PNG. */
export const FEATURES_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export enum Tone {
  Friendly = 'friendly',
  Formal = 'formal',
}

export class SummaryArgs {
  @McpField({ description: 'Topic to summarise' })
  @IsString()
  topic!: string;

  @McpField({ description: 'How many sentences' })
  @IsInt()
  @Min(1)
  @Max(5)
  sentences!: number;

  @McpField({ description: 'Style of the summary' })
  @IsOptional()
  @IsIn(['short', 'long'])
  style?: string;
}

/** Prompts covering each return shape and each argument conversion. */
@Injectable()
export class FeaturesPrompts {
  @McpPrompt({ name: 'greet', title: 'Greeting', description: 'Greets someone (string return)' })
  greet(
    @McpArg('name', { title: 'Name', description: 'Who to greet' }) name: string,
    @PromptContext() context: McpPromptContext,
    @McpArg('suffix', { description: 'Appended text', required: false }) suffix?: string,
  ): string {
    return `Hello, ${name}${suffix ?? ''}! (prompt ${context.promptName})`;
  }

  @McpPrompt({ name: 'dialogue', description: 'Strings and messages mixed (array return)' })
  dialogue() {
    return ['first from user', { role: 'assistant' as const, content: text('reply from assistant') }, text('a bare block')];
  }

  @McpPrompt({ name: 'full', description: 'A whole GetPromptResult' })
  full() {
    return {
      description: 'A full result',
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'from a full result' } }],
    };
  }

  @McpPrompt({ name: 'picture', description: 'One content block' })
  picture() {
    return image(FEATURES_PNG, 'image/png');
  }

  @McpPrompt({ name: 'convert', description: 'Echoes its converted arguments as JSON' })
  convert(
    @McpArg('ratio', { description: 'A number' }) ratio: number,
    @McpArg('count', { description: 'An integer', schema: { type: 'integer', description: 'An integer' } }) count: number,
    @McpArg('loud', { description: 'A boolean' }) loud: boolean,
    @McpArg('tone', { description: 'An enum', enum: Tone }) tone: Tone,
  ): string {
    return JSON.stringify({ ratio, count, loud, tone, types: [typeof ratio, typeof count, typeof loud, typeof tone] });
  }

  @McpPrompt({ name: 'summary', description: 'DTO-based arguments' })
  summary(@McpArgs() args: SummaryArgs): string {
    return JSON.stringify({ isDto: args instanceof SummaryArgs, topic: args.topic, sentences: args.sentences, style: args.style ?? null });
  }

  @McpPrompt({ name: 'seventh', description: 'Fails: returns a number' })
  seventh(): number {
    return 7;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-prompts', version: '1.0.0', pageSize: 2 })],
  providers: [FeaturesPrompts],
})
export class FeaturesPromptsModule {}
