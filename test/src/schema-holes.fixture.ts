import 'reflect-metadata';
import { createParamDecorator, Injectable, Module, type ExecutionContext } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsEmail, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { McpArg, McpArgs, McpField, McpModule, McpTool, ToolContext, type McpToolContext } from '../../lib/index.js';

/** Every kind of schema hole start-up warns about, one each. */
export class LooseArgs {
  @McpField({ description: 'A union: the schema cannot say which' })
  @IsDefined()
  value!: string | number;

  @IsOptional()
  meta?: object;

  @IsArray()
  labels!: string[];
}

/** Its properties carry no decorator, so its outputSchema has no properties. */
export class UndecoratedReport {
  total = 0;
}

@Injectable()
export class HoleyTools {
  @McpTool({ name: 'loose', description: 'Takes a DTO with holes' })
  loose(@McpArgs() args: LooseArgs) {
    return args;
  }

  @McpTool({ name: 'tagged', description: 'Takes named arguments with holes' })
  tagged(@McpArg('tags') tags: string[], @McpArg('id') id: string | number) {
    return { tags, id };
  }

  @McpTool({ name: 'report', description: 'Returns an undecorated DTO' })
  report(): UndecoratedReport {
    return new UndecoratedReport();
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'schema-holes', version: '1.0.0' })], providers: [HoleyTools] })
export class SchemaHolesModule {}

/** The same tools with each hole fixed, plus context parameters, which never feed a schema. */
export class Tag {
  @IsString() name!: string;
}

export class TightArgs {
  @McpField({ anyOf: [{ type: 'string' }, { type: 'number' }] })
  @IsDefined()
  value!: string | number;

  @IsObject()
  meta!: object;

  @IsString({ each: true })
  labels!: string[];

  @ValidateNested({ each: true })
  @Type(() => Tag)
  tags!: Tag[];
}

export class Booking {
  @IsString() name!: string;
  @IsInt() @Min(1) nights!: number;
  @IsEmail() email!: string;
}

export class Report {
  @McpField({ description: 'How many' }) @IsInt() total!: number;
}

const UserAgent = createParamDecorator((_data: unknown, context: ExecutionContext) => context.getArgByIndex<{ httpRequest?: { headers: Record<string, string> } }>(0)?.httpRequest?.headers['user-agent']);

@Injectable()
export class TightTools {
  @McpTool({ name: 'tight', description: 'Takes a fully typed DTO' })
  tight(@McpArgs() args: TightArgs, @ToolContext() context: McpToolContext) {
    return { ...args, requestId: context.requestId };
  }

  @McpTool({ name: 'tagged', description: 'Takes typed named arguments' })
  tagged(
    @McpArg('tags', { items: String }) tags: string[],
    @McpArg('id', { schema: { anyOf: [{ type: 'string' }, { type: 'number' }] } }) id: string | number,
    @UserAgent() userAgent: string,
  ) {
    return { tags, id, userAgent };
  }

  @McpTool({ name: 'book', description: 'Books a room' })
  book(@McpArgs() booking: Booking): Report {
    return { total: booking.nights };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'schema-tight', version: '1.0.0' })], providers: [TightTools] })
export class SchemaTightModule {}

@Injectable()
export class UndecoratedTools {
  @McpTool({ name: 'greet', description: 'Forgot @McpArg on its second parameter' })
  greet(@McpArg('name') name: string, suffix: string) {
    return `Hello, ${name}${suffix}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'schema-undecorated', version: '1.0.0' })], providers: [UndecoratedTools] })
export class SchemaUndecoratedModule {}
