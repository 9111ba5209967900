import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { SchemaHolesModule, SchemaTightModule, SchemaUndecoratedModule } from './src/schema-holes.fixture.js';
import { callMcp, startApp, type StartedApp } from './support/mcp-http.js';

/** A Nest logger that keeps the warnings, with their context. */
function warningLogger(): LoggerService & { warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return { warnings, log: ignore, error: ignore, debug: ignore, verbose: ignore, fatal: ignore, warn: (message: unknown, context?: unknown) => warnings.push(`[${String(context)}] ${String(message)}`) };
}

describe('start-up warnings for schema holes', () => {
  let started: StartedApp | undefined;

  afterEach(async () => {
    await started?.app.close();
    started = undefined;
  });

  it('logs one warning per hole, naming the class, the method, the value and the fix', async () => {
    const logger = warningLogger();
    started = await startApp([SchemaHolesModule], '/mcp', [], logger);
    expect(logger.warnings).toEqual([
      '[McpModule] Property "value" of LooseArgs (in HoleyTools.loose()) accepts any value (schema {}): its type (a union, object, any or unknown) says nothing JSON Schema can check. ' +
        "State its type: @IsObject(), @IsString(), ... or @McpField({ type: 'object' }), with anyOf for a union.",
      '[McpModule] Property "meta" of LooseArgs (in HoleyTools.loose()) accepts any value (schema {}): its type (a union, object, any or unknown) says nothing JSON Schema can check. ' +
        "State its type: @IsObject(), @IsString(), ... or @McpField({ type: 'object' }), with anyOf for a union.",
      '[McpModule] Property "labels" of LooseArgs (in HoleyTools.loose()) accepts arrays of anything: TypeScript keeps no item type at run time. ' +
        "Name the item type: @IsString({ each: true }), @ValidateNested({ each: true }) @Type(() => Item), or @McpField({ items: { type: 'string' } }).",
      '[McpModule] Argument "tags" of HoleyTools.tagged() accepts arrays of anything: TypeScript keeps no item type at run time. ' +
        "Name the item type: @McpArg('tags', { items: String }) (or a DTO class).",
      '[McpModule] Argument "id" of HoleyTools.tagged() accepts any value (schema {}): its type (a union, object, any or unknown) says nothing JSON Schema can check. ' +
        "State its schema: @McpArg('id', { schema: { type: 'object' } }), with anyOf for a union or enum for literals.",
      '[McpModule] UndecoratedReport, the output of HoleyTools.report(), has no decorated property, so its outputSchema says nothing about its properties. ' +
        'Decorate them with class-validator decorators or @McpField().',
    ]);
  });

  it('logs none for the same tools with each hole fixed, nor for context and custom parameter decorators', async () => {
    const logger = warningLogger();
    started = await startApp([SchemaTightModule], '/mcp', [], logger);
    expect(logger.warnings).toEqual([]);
  });

  it('fails start-up on a parameter without a decorator, which would always be undefined', async () => {
    // Kept for afterEach should it start after all, so a failing run does not hang on an open server.
    const failure = await startApp([SchemaUndecoratedModule]).then((app) => void (started = app), (error: Error) => error);
    expect(failure?.message).toBe(
      "Parameter 2 (String) of UndecoratedTools.greet() has no parameter decorator: it is not in the input schema and is always undefined. " +
        "Take it with @McpArg('name') (optional: @McpArg('name', { required: false })) or @McpArgs(), or inject the context with @ToolContext() and the like.",
    );
  });

  it('reports every invalid argument of a call in one tool error', async () => {
    started = await startApp([SchemaTightModule]);
    const response = await callMcp(started.url, 'tools/call', { name: 'book', arguments: { name: 7, nights: 0, email: 'nope' } });
    expect(response.body.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments: "name" must be string; "nights" must be >= 1; "email" must match format "email"' }],
    });
  });
});
