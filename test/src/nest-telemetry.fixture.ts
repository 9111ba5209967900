import { Injectable, Module, UseGuards, type CanActivate } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { McpArg, McpModule, McpPrompt, McpResource, McpTool } from '../../lib/index.js';

class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
export class TracedTools {
  @McpTool({ name: 'traced', description: 'Makes a span of its own' })
  traced(@McpArg('word') word: string) {
    return trace.getTracer('app').startActiveSpan('app.work', (span) => {
      span.end();
      return `traced ${word}`;
    });
  }

  @McpTool({ name: 'fails', description: 'Always fails' })
  fails(): never {
    throw new Error('kaput');
  }

  @McpTool({ name: 'denied', description: 'Never allowed' })
  @UseGuards(DenyGuard)
  denied() {
    return 'never';
  }

  @McpPrompt({ name: 'greeting', description: 'A prompt' })
  greeting() {
    return 'hello';
  }

  @McpResource({ uri: 'docs://readme', name: 'readme', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'telemetry-fixture', version: '1.0.0' })],
  providers: [TracedTools],
})
export class TelemetryFixtureModule {}
