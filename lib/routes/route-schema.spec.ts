import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Body, Controller, DefaultValuePipe, Param, ParseArrayPipe, ParseIntPipe, Post, Query } from '@nestjs/common';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { readRoute } from '../invocation/nest-route-metadata.js';
import { requestParts } from './route-exchange.js';
import { buildRouteInput } from './route-schema.js';

class RenameDto {
  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  id?: number;
}

class PageDto {
  @IsOptional()
  @IsInt()
  limit?: number;
}

@Controller('teams/:team')
class Teams {
  @Post(':id')
  rename(@Param('team') _team: string, @Param('id', ParseIntPipe) _id: number, @Body() _body: RenameDto): void {}

  @Post()
  open(@Param() _params: object, @Body() _body: Record<string, unknown>): void {}

  @Post('search')
  search(
    @Query() _page: PageDto,
    @Query('size', new DefaultValuePipe(10), ParseIntPipe) _size: number,
    @Query('ids', new ParseArrayPipe({ items: Number, optional: true })) _ids: number[],
    @Body('term') _term: string,
  ): void {}
}

const input = (methodName: keyof Teams) => {
  const route = readRoute(Teams, methodName, Teams.prototype[methodName])!;
  return buildRouteInput(route, Reflect.getMetadata('design:paramtypes', Teams.prototype, methodName), `Teams.${methodName}()`);
};

describe('route tool input: one object from the path, the query and the body', () => {
  it('a body DTO with a property named like a path parameter goes whole under "body"', () => {
    const { inputSchema, layout, bodyDto } = input('rename');
    // Its class-validator rules are checked on the `body` argument, as @McpArgs() checks its DTO.
    expect(bodyDto).toBe(RenameDto);
    expect(inputSchema).toEqual({
      type: 'object',
      properties: {
        team: { type: 'string' },
        id: { type: 'integer' },
        body: { type: 'object', properties: { name: { type: 'string' }, id: { type: 'integer' } }, required: ['name'] },
      },
      required: ['team', 'id', 'body'],
    });
    expect(requestParts({ team: 'red', id: 3, body: { name: 'Blue', id: 4 } }, layout)).toEqual({ params: { team: 'red', id: '3' }, query: {}, body: { name: 'Blue', id: 4 } });
  });

  it('@Param() whole takes the path\'s own names; a body of no class takes every other argument', () => {
    const { inputSchema, layout, bodyDto } = input('open');
    expect(bodyDto).toBeUndefined();
    expect(inputSchema).toEqual({ type: 'object', properties: { team: { type: 'string' } }, required: ['team'] });
    expect(requestParts({ team: 'red', colour: 'blue', size: 2 }, layout)).toEqual({ params: { team: 'red' }, query: {}, body: { colour: 'blue', size: 2 } });
  });

  it('a query DTO, a default value, an optional ParseArrayPipe and a named body field; query values arrive as text', () => {
    const { inputSchema, layout } = input('search');
    expect(inputSchema).toEqual({
      type: 'object',
      properties: {
        limit: { type: 'integer' },
        size: { type: 'integer', default: 10 },
        ids: { type: 'array', items: { type: 'number' } },
        term: { type: 'string' },
        team: { type: 'string' },
      },
      required: ['term', 'team'],
    });
    // `team` is a path name although no parameter reads it: the route's path has it, the call gives it.
    expect(requestParts({ limit: 5, ids: [1, 2], term: 'x', extra: true }, layout)).toEqual({ params: {}, query: { limit: '5', ids: ['1', '2'] }, body: { term: 'x' } });
  });
});
