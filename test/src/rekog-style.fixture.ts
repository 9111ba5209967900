// Tools, a resource, a resource template and a prompt written as @rekog/mcp-nest 1.x users write them
// (Zod `parameters`, handlers taking `(args, context, request)`, `context.reportProgress()`, whole
// results returned as objects). Moved here by changing only the imports and the decorator names:
//
//   - import { Context, McpModule, Prompt, Resource, ResourceTemplate, Tool } from '@rekog/mcp-nest';
//   + import { McpModule, McpPrompt, McpResource, McpResourceTemplate, McpTool, type McpToolContext as Context } from 'nest-mcp';
//   - @Tool(…)  @Resource(…)  @ResourceTemplate(…)  @Prompt(…)
//   + @McpTool(…)  @McpResource(…)  @McpResourceTemplate(…)  @McpPrompt(…)
//
// Nothing else below differs from the original.
import { Injectable, Module } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { McpModule, McpPrompt, McpResource, McpResourceTemplate, McpTool, type McpToolContext as Context } from 'nest-mcp';

@Injectable()
export class GreetingTool {
  @McpTool({
    name: 'hello-world',
    description: 'Greets someone, reporting progress as it goes',
    parameters: z.object({
      name: z.string().default('World').describe('Who to greet'),
      steps: z.number().int().min(1).max(10).default(4),
    }),
  })
  async sayHello({ name, steps }: { name: string; steps: number }, context: Context, request: IncomingMessage) {
    const userAgent = request.headers['user-agent'] ?? 'an unknown client';
    for (let step = 1; step <= steps; step++) {
      await context.reportProgress({ progress: (step * 100) / steps, total: 100 });
    }
    return { content: [{ type: 'text', text: `Hello, ${name}! You are using ${userAgent}.` }] };
  }

  @McpTool({
    name: 'word-count',
    description: 'Counts the words of a text',
    parameters: z.object({ text: z.string() }),
    outputSchema: z.object({ words: z.number().int(), longest: z.string() }),
    annotations: { readOnlyHint: true },
  })
  async countWords({ text }: { text: string }) {
    const words = text.split(/\s+/).filter(Boolean);
    const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
    const structuredContent = { words: words.length, longest };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  }
}

@Injectable()
export class PingTool {
  @McpTool({ name: 'ping-pong', description: 'Answers pong, with no parameters schema' })
  async ping(_args: unknown, context: Context) {
    await context.reportProgress({ progress: 1, total: 1 });
    return { content: [{ type: 'text', text: 'pong' }] };
  }
}

@Injectable()
export class UserResources {
  @McpResource({ uri: 'mcp://hello-world', name: 'hello-world', description: 'A static greeting', mimeType: 'text/plain' })
  getHello({ uri }: { uri: string }) {
    return { contents: [{ uri, mimeType: 'text/plain', text: 'Hello, World!' }] };
  }

  @McpResourceTemplate({ uriTemplate: 'mcp://users/{userId}/profile', name: 'user-profile', description: 'A user\'s profile', mimeType: 'application/json' })
  getProfile({ uri, userId }: { uri: string; userId: string }) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: userId, name: `User ${userId}` }) }] };
  }
}

@Injectable()
export class GreetingPrompt {
  @McpPrompt({
    name: 'greeting-guide',
    description: 'How to greet someone in their language',
    parameters: z.object({ name: z.string().describe('Who is greeted'), language: z.string().optional().describe('A language code, e.g. "fr"') }),
  })
  getGreetingGuide({ name, language }: { name: string; language?: string }) {
    return {
      description: 'Greeting guide',
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Write a greeting for ${name} in ${language ?? 'English'}.` } }],
    };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'my-mcp-server', version: '1.0.0' })],
  providers: [GreetingTool, PingTool, UserResources, GreetingPrompt],
})
export class RekogStyleAppModule {}
