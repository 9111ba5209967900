import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { IsInt, IsString, Min } from 'class-validator';
import { of, delay } from 'rxjs';
import type { Observable } from 'rxjs';
import { image, McpArg, McpArgs, McpField, McpModule, McpTool, text } from '../../lib/index.js';
import { BillingService } from '../../sample/tools/billing.service.js';
import { GreetingTools } from '../../sample/tools/greeting.tools.js';
import { InteractiveTools } from '../../sample/tools/interactive.tools.js';
import { UserTools } from '../../sample/tools/user.tools.js';

/** A 1×1 transparent PNG. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export class SumResult {
  @McpField({ description: 'The sum' })
  @IsInt()
  sum!: number;

  constructor(sum: number) {
    this.sum = sum;
  }
}

export class RepeatDto {
  @McpField({ description: 'The word to repeat' })
  @IsString()
  word!: string;

  @McpField({ description: 'How many times' })
  @IsInt()
  @Min(1)
  times!: number;
}

/** Return patterns the sample does not show, plus error paths. */
@Injectable()
export class PatternTools {
  @McpTool({ name: 'add', description: 'Adds two integers, returning a DTO' })
  add(@McpArg('a', { description: 'First' }) a: number, @McpArg('b', { description: 'Second' }) b: number): SumResult {
    return new SumResult(a + b);
  }

  @McpTool({ name: 'full-result', description: 'Returns a whole CallToolResult' })
  fullResult() {
    return {
      content: [text('first'), { type: 'text' as const, text: 'second' }],
      structuredContent: { custom: true },
      isError: false,
    };
  }

  @McpTool({ name: 'picture', description: 'Returns an image content block' })
  picture() {
    return image(PIXEL_PNG, 'image/png');
  }

  @McpTool({ name: 'later', description: 'Resolves a string after a tick' })
  async later(@McpArg('value') value: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `later: ${value}`;
  }

  @McpTool({ name: 'stream', description: 'An Observable of one object' })
  stream(): Observable<{ streamed: number }> {
    return of({ streamed: 42 }).pipe(delay(5));
  }

  @McpTool({ name: 'explode', description: 'Always throws' })
  explode(): never {
    throw new Error('The reactor is on fire');
  }

  @McpTool({ name: 'repeat', description: 'Repeats a word, arguments as one DTO' })
  repeat(@McpArgs() dto: RepeatDto): string {
    return Array.from({ length: dto.times }, () => dto.word).join(' ');
  }

  @McpTool({ name: 'gallery', description: 'Returns an array of content blocks' })
  gallery() {
    return [text('a picture:'), image(PIXEL_PNG, 'image/png')];
  }

  @McpTool({ name: 'count', description: 'Returns a bare number' })
  count(): number {
    return 3;
  }

  @McpTool({ name: 'no-args', description: 'Takes no arguments' })
  noArgs(): string {
    return 'nothing needed';
  }
}

/** Counts instances so a test can tell a fresh one per call. */
export const scopeCounters = { requestScoped: 0, transient: 0 };

@Injectable({ scope: Scope.REQUEST })
export class RequestScopedTools {
  readonly instanceNumber: number;

  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {
    this.instanceNumber = ++scopeCounters.requestScoped;
  }

  @McpTool({ name: 'whoami', description: 'Reads the X-Caller header of the HTTP request it serves' })
  whoami() {
    return {
      caller: this.request?.headers?.['x-caller'] ?? null,
      isHttpRequest: typeof this.request?.headers === 'object' && typeof this.request?.method === 'string',
      method: this.request?.method ?? null,
      instance: this.instanceNumber,
    };
  }
}

@Injectable({ scope: Scope.TRANSIENT })
export class TransientTools {
  readonly instanceNumber = ++scopeCounters.transient;

  constructor(private readonly billing: BillingService) {}

  @McpTool({ name: 'transient-ping', description: 'A tool on a transient provider' })
  ping(): string {
    return `pong from transient #${this.instanceNumber}, billing ${this.billing instanceof BillingService ? 'injected' : 'missing'}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'tools-fixture', version: '2.0.0', pageSize: 2 })],
  providers: [GreetingTools, UserTools, InteractiveTools, BillingService, PatternTools, RequestScopedTools, TransientTools],
})
export class TransportToolsFixtureModule {}

/** Two providers declaring the same tool name: start-up must fail. */
@Injectable()
export class FirstDuplicateTools {
  @McpTool({ name: 'same-name', description: 'One' })
  one(): string {
    return 'one';
  }
}

@Injectable()
export class SecondDuplicateTools {
  @McpTool({ name: 'same-name', description: 'Two' })
  two(): string {
    return 'two';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'duplicates', version: '1.0.0' })],
  providers: [FirstDuplicateTools, SecondDuplicateTools],
})
export class TransportDuplicateToolsModule {}
