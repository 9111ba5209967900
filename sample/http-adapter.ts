import type { INestApplication, NestApplicationOptions, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * Creates the HTTP application on Express (the default) or, with `MCP_HTTP_ADAPTER=fastify`, on
 * Fastify. McpModule needs nothing else: the same module serves MCP on either adapter.
 */
export async function createHttpApp(module: Type, options: NestApplicationOptions = {}): Promise<INestApplication> {
  if (process.env.MCP_HTTP_ADAPTER === 'fastify') {
    // Imported only when chosen: an Express application needs no Fastify installed.
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    return NestFactory.create(module, new FastifyAdapter(), options);
  }
  return NestFactory.create(module, options);
}
