import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpModule, McpPrompt, McpResource, McpTool } from '../../lib/index.js';

@Injectable()
export class FeaturesStatic {
  @McpTool({ description: 'A tool declared by decorator' })
  ping(): string {
    return 'pong';
  }

  @McpPrompt({ name: 'static-prompt', description: 'A prompt declared by decorator' })
  staticPrompt(@McpArg('topic') topic: string): string {
    return `About ${topic}`;
  }

  @McpResource({ uri: 'notes://watched', name: 'watched', description: 'A resource clients subscribe to' })
  watched(): string {
    return 'watched';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-subscriptions', version: '1.0.0' })],
  providers: [FeaturesStatic],
})
export class FeaturesSubscriptionsModule {}
