import { Injectable } from '@nestjs/common';
import { Elicitor, McpArg, McpComplete, McpPrompt, type McpElicitor } from 'nest-mcp';

export enum Language {
  TypeScript = 'typescript',
  Java = 'java',
  Python = 'python',
}

// A Map, not an object literal: the client-chosen language "constructor" must find nothing.
const FRAMEWORKS = new Map([
  ['typescript', ['nestjs', 'express', 'fastify', 'next']],
  ['java', ['spring', 'quarkus', 'micronaut']],
  ['python', ['django', 'fastapi', 'flask']],
]);

@Injectable()
export class ReviewPrompts {
  @McpPrompt({ name: 'code-review', description: 'Asks for a review of a piece of code' })
  codeReview(
    @McpArg('code', { description: 'The code to review' }) code: string,
    @McpArg('language', { description: 'Its language', enum: Language }) language: Language,
    @McpArg('framework', { description: 'The framework in use', required: false }) framework?: string,
    @McpArg('strictness', { description: 'How strict, 1–5', required: false }) strictness: number = 3,
  ) {
    return [
      { role: 'assistant' as const, content: { type: 'text' as const, text: `I review ${language}${framework ? ` (${framework})` : ''} code at strictness ${strictness}.` } },
      `Please review this code:\n\n${code}`,
    ];
  }

  /** Dynamic completion that honours the already-chosen language (context.arguments). */
  @McpComplete({ prompt: 'code-review', argument: 'framework' })
  completeFramework(value: string, context: { arguments: Record<string, string> }): string[] {
    const language = context.arguments.language;
    const candidates = language ? (FRAMEWORKS.get(language) ?? []) : [...FRAMEWORKS.values()].flat();
    return candidates.filter((name) => name.startsWith(value.toLowerCase()));
  }

  /** The seed's elicitation-from-a-prompt example. */
  @McpPrompt({ name: 'plan-review', description: 'Reviews a plan with user-supplied context' })
  async planReview(@Elicitor() elicitor: McpElicitor) {
    const answer = await elicitor.elicit('What context should the review use?', (schema) => schema.string('context', 'Context'));
    const context = answer.isAccepted() ? answer.getString('context') : 'no extra context';
    return `Review the plan with this context: ${context}`;
  }
}
