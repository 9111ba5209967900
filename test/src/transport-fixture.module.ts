import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpModule, McpTool } from '../../lib/index.js';

@Injectable()
export class TransportEchoTools {
  @McpTool({ name: 'echo', description: 'Echoes a message back as text' })
  echo(@McpArg('message') message: string): string {
    return message;
  }
}

/** A non-default transport set-up: an explicit Origin allow-list, public caching, a custom endpoint. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'transport-fixture',
      version: '3.1.4',
      endpoint: '/rpc/mcp',
      allowedOrigins: ['https://app.example.com'],
      cache: { ttlMs: 60000, cacheScope: 'public' },
    }),
  ],
  providers: [TransportEchoTools],
})
export class TransportFixtureModule {}
