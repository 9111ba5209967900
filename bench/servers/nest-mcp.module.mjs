// The module of nest-mcp under test (nest-mcp.mjs serves it on a port; ../in-process.mjs calls its endpoint
// without sockets): an `echo` tool, the same echo as `guarded` behind a guard and an interceptor (the Nest
// enhancer path; `echo` has no enhancer and is called directly), a 3-question MRTR tool and a
// 1,000-notification progress tool.
// Plain JS with the decorators applied by hand (no TypeScript metadata emit): design:paramtypes is
// declared explicitly so the schema comes out exactly as it would from `message: string`.
import 'reflect-metadata';
import { Injectable, Module, UseGuards, UseInterceptors } from '@nestjs/common';
import { McpArg, McpModule, McpTool, ToolContext } from 'nest-mcp';

/** Lets every call through, as an auth guard does for an allowed caller. */
class AllowGuard {
  canActivate(context) {
    return context.getType() === 'mcp';
  }
}
Reflect.decorate([Injectable()], AllowGuard);

/** Hands the result on, as a logging or metrics interceptor does. */
class PassInterceptor {
  intercept(_context, next) {
    return next.handle();
  }
}
Reflect.decorate([Injectable()], PassInterceptor);

class BenchTools {
  echo(message) {
    return message;
  }

  guarded(message) {
    return message;
  }

  async survey(ctx) {
    const a = await ctx.elicit('Question 1: your name?', (s) => s.string('name', 'Name'));
    const b = await ctx.elicit('Question 2: your plan?', (s) => s.choice('plan', 'Plan', ['pro', 'team']));
    const c = await ctx.elicit('Question 3: confirm?', (s) => s.bool('confirmed', 'Confirmed'));
    return { name: a.getString('name'), plan: b.getChoice('plan'), confirmed: c.getBool('confirmed') };
  }

  async stream(count, ctx) {
    const progress = ctx.longProgress(count);
    for (let i = 1; i <= count; i++) progress.emit(i, `step ${i}`);
    return `streamed ${count}`;
  }
}

function method(cls, key, paramtypes, decorators) {
  const proto = cls.prototype;
  Reflect.defineMetadata('design:paramtypes', paramtypes, proto, key);
  Reflect.defineMetadata('design:returntype', paramtypes.returns ?? Object, proto, key);
  for (const [index, decorate] of decorators.params) decorate(proto, key, index);
  const descriptor = Object.getOwnPropertyDescriptor(proto, key);
  decorators.method(proto, key, descriptor);
  Object.defineProperty(proto, key, descriptor);
}

method(BenchTools, 'echo', Object.assign([String], { returns: String }), {
  method: McpTool({ name: 'echo', description: 'Echoes a message back as text' }),
  params: [[0, McpArg('message', { description: 'What to echo' })]],
});
method(BenchTools, 'guarded', Object.assign([String], { returns: String }), {
  method: (proto, key, descriptor) => {
    McpTool({ name: 'guarded', description: 'Echoes a message back, behind a guard and an interceptor' })(proto, key, descriptor);
    UseGuards(AllowGuard)(proto, key, descriptor);
    UseInterceptors(PassInterceptor)(proto, key, descriptor);
  },
  params: [[0, McpArg('message', { description: 'What to echo' })]],
});
method(BenchTools, 'survey', [Object], {
  method: McpTool({ name: 'survey', description: 'Asks three questions, one per round trip' }),
  params: [[0, ToolContext()]],
});
method(BenchTools, 'stream', [Number, Object], {
  method: McpTool({ name: 'stream', description: 'Emits `count` progress notifications' }),
  params: [
    [0, McpArg('count', { description: 'How many notifications' })],
    [1, ToolContext()],
  ],
});
Reflect.decorate([Injectable()], BenchTools);

export class AppModule {}
Reflect.decorate(
  [
    Module({
      imports: [
        McpModule.forRoot({
          name: 'nest-mcp-bench',
          version: '0.1.0',
          // A fixed key so no "ephemeral secret" warning; bench only.
          mrtr: { secret: Buffer.alloc(32, 7).toString('base64') },
        }),
      ],
      providers: [BenchTools],
    }),
  ],
  AppModule,
);

