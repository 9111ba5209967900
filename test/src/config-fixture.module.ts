import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { fileURLToPath } from 'node:url';
import { McpArg, McpTool, type McpModuleOptions, type McpOptionsFactory } from '../../lib/index.js';

/** The .env fixtures, resolved next to this file (CI clones the repo anywhere). */
export const CONFIG_TEST_ENV = fileURLToPath(new URL('./config-test.env', import.meta.url));
export const CONFIG_BAD_SECRET_ENV = fileURLToPath(new URL('./config-bad-secret.env', import.meta.url));
export const CONFIG_BAD_TTL_ENV = fileURLToPath(new URL('./config-bad-ttl.env', import.meta.url));

/** Five tools, so page sizes are visible. */
@Injectable()
export class ConfigFixtureTools {
  @McpTool({ name: 'c1', description: 'Tool one' })
  c1(@McpArg('text') value: string): string {
    return `c1:${value}`;
  }

  @McpTool({ name: 'c2', description: 'Tool two' })
  c2(): string {
    return 'c2';
  }

  @McpTool({ name: 'c3', description: 'Tool three' })
  c3(): string {
    return 'c3';
  }

  @McpTool({ name: 'c4', description: 'Tool four' })
  c4(): string {
    return 'c4';
  }

  @McpTool({ name: 'c5', description: 'Tool five' })
  c5(): string {
    return 'c5';
  }
}

export const CONFIG_FIXTURE_TOOL_NAMES = ['c1', 'c2', 'c3', 'c4', 'c5'];

/** `forRootAsync({ useClass })`: options built by a class that reads ConfigService. */
@Injectable()
export class ConfigMcpOptionsFactory implements McpOptionsFactory {
  constructor(private readonly config: ConfigService) {}

  async createMcpOptions(): Promise<McpModuleOptions> {
    return { title: this.config.get<string>('APP_MCP_TITLE'), endpoint: '/via-class', pageSize: 4 };
  }
}
