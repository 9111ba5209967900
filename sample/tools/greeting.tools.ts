import { Injectable, Logger } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpArg, McpField, McpTool, text } from 'nest-mcp';

/** A DTO return type: the tool gets an outputSchema and answers with structuredContent. */
export class HelloResponse {
  @McpField({ description: 'The greeting' })
  @IsString()
  message!: string;

  constructor(message: string) {
    this.message = message;
  }
}

/** The three return patterns: simple, void, and a content block. */
@Injectable()
export class GreetingTools {
  private readonly logger = new Logger(GreetingTools.name);

  @McpTool({ name: 'hello', description: 'Greets someone', annotations: { readOnlyHint: true } })
  hello(@McpArg('name', { description: 'Who to greet' }) name: string): HelloResponse {
    return new HelloResponse(`Hello, ${name}!`);
  }

  @McpTool({ name: 'echo', description: 'Echoes a message back as text' })
  echo(@McpArg('message', { description: 'What to echo' }) message: string): string {
    return message;
  }

  @McpTool({ name: 'notify', description: 'Sends a push notification (logged by the sample)' })
  notify(@McpArg('message', { description: 'The notification text' }) message: string): void {
    this.logger.log(`notification: ${message}`);
  }

  @McpTool({ name: 'shout', description: 'Returns a message in capitals, as a text content block' })
  async shout(@McpArg('message') message: string) {
    return text(message.toUpperCase(), { audience: ['user'], priority: 0.5 });
  }
}
