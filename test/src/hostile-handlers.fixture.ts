import 'reflect-metadata';
import { Injectable, InternalServerErrorException, NotFoundException, type LoggerService } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import {
  McpArg,
  McpArgs,
  McpComplete,
  McpField,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpToolError,
} from '../../lib/index.js';
import { ReviewPrompts } from '../../sample/prompts/review.prompts.js';
import { DocsResources } from '../../sample/resources/docs.resources.js';
import { UserTools } from '../../sample/tools/user.tools.js';

/** What a leaky error message looks like: a path, a host and SQL. None of it may reach a client. */
export const SECRET_DETAIL = 'connect ECONNREFUSED db.internal:5432 running SELECT * FROM users at /srv/app/secret.ts';

export class AddressDto {
  @McpField({ description: 'City' })
  @IsString()
  city!: string;
}

export class ShipmentDto {
  @McpField({ description: 'Recipient' })
  @IsString()
  recipient!: string;

  @McpField({ description: 'Where to' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

@Injectable()
export class HostileHandlers {
  @McpTool({ name: 'echo', description: 'Echoes a message' })
  echo(@McpArg('message') message: string): string {
    return message;
  }

  @McpTool({ name: 'leak', description: 'Fails with an internal error whose message must not leak' })
  leak(): never {
    throw new Error(SECRET_DETAIL);
  }

  @McpTool({ name: 'refuse', description: 'Fails on purpose, with a message for the model' })
  refuse(): never {
    throw new McpToolError('Order 42 has already shipped; it cannot be changed');
  }

  @McpTool({ name: 'missing', description: 'Throws a 4xx HttpException' })
  missing(): never {
    throw new NotFoundException('No order 42');
  }

  @McpTool({ name: 'server-fault', description: 'Throws a 5xx HttpException' })
  serverFault(): never {
    throw new InternalServerErrorException(SECRET_DETAIL);
  }

  @McpTool({ name: 'ship', description: 'Takes a nested DTO' })
  ship(@McpArgs() shipment: ShipmentDto): string {
    return `to ${shipment.recipient}${shipment.address ? ` in ${shipment.address.city}` : ''}`;
  }

  @McpPrompt({ name: 'leaky-prompt', description: 'Fails with an internal error' })
  leakyPrompt(): never {
    throw new Error(SECRET_DETAIL);
  }

  @McpPrompt({ name: 'pick', description: 'Takes a typed argument' })
  pick(@McpArg('count', { required: false }) count?: number): string {
    return `picked ${count ?? 'none'}`;
  }

  @McpComplete({ prompt: 'pick', argument: 'count' })
  completeCount(): string[] {
    throw new Error(SECRET_DETAIL);
  }

  @McpResource({ uri: 'leaky://resource', name: 'leaky', description: 'Fails with an internal error' })
  leakyResource(): never {
    throw new Error(SECRET_DETAIL);
  }

  @McpResourceTemplate({ uriTemplate: 'leaky://items/{id}', name: 'leaky-items', description: 'Fails with an internal error' })
  leakyItem(): never {
    throw new Error(SECRET_DETAIL);
  }
}

export const HOSTILE_HANDLERS_MODULE = {
  module: class HostileHandlersModule {},
  imports: [McpModule.forRoot({ name: 'hostile-handlers', version: '1.0.0' })],
  providers: [HostileHandlers, UserTools, DocsResources, ReviewPrompts],
};

export interface LogEntry {
  level: string;
  text: string;
}

/** A Nest logger that keeps every entry (message, stack and context joined) for assertions. */
export class RecordingLogger implements LoggerService {
  readonly entries: LogEntry[] = [];
  log = this.record('log');
  error = this.record('error');
  warn = this.record('warn');
  debug = this.record('debug');
  verbose = this.record('verbose');
  fatal = this.record('fatal');

  private record(level: string) {
    return (...parts: unknown[]) => {
      this.entries.push({ level, text: parts.map(String).join('\n') });
    };
  }
}

/** A stack frame in logged text: "    at fn (file:line)". */
export const STACK_FRAME = /\n\s+at \S/;
