import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';

/**
 * Whether the e2e apps run on Fastify rather than Express: `MCP_HTTP_ADAPTER=fastify` (`npm run
 * test:fastify` runs the e2e suites again that way). Suites create their apps through
 * `createHttpApp`, so one suite covers both adapters.
 */
export const onFastify = process.env.MCP_HTTP_ADAPTER === 'fastify';

/** The application of `moduleRef` on the chosen adapter. */
export function createHttpApp<T extends INestApplication = INestApplication>(moduleRef: TestingModule, options: NestApplicationOptions = {}): T {
  if (onFastify) return moduleRef.createNestApplication<T>(new FastifyAdapter(), options);
  return moduleRef.createNestApplication<T>(options);
}

/**
 * Sets the application's own JSON body limit (bytes), as a user would on each adapter: the MCP
 * endpoint reads its body under the module's limit whatever this is.
 */
export function setAppJsonLimit(app: INestApplication, bytes: number): void {
  const parsers = app as unknown as { useBodyParser(type: string, options: object): void };
  if (onFastify) parsers.useBodyParser('application/json', { bodyLimit: bytes });
  else parsers.useBodyParser('json', { limit: bytes });
}
