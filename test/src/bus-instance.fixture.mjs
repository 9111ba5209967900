// One instance for test/several-instances.e2e-spec.ts: the sample as `npm start` serves it, plus two
// probes, spawned with node on the built library (dist/), so a test can kill -9 it. Plain JavaScript:
// the probe's decorators are applied as TypeScript would emit them. Lines starting with "probe " on
// stdout are what the test reads.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpRegistry, McpTool, ToolContext } from '../../dist/lib/index.js';
import { createHttpApp } from '../../dist/sample/http-adapter.js';
import { HttpAppModule } from '../../dist/sample/http-app.module.js';

const say = (line) => process.stdout.write(`probe ${line}\n`);
const now = () => performance.timeOrigin + performance.now();

/** `hold` runs as a task until its signal fires, and says when it did (wall clock, ms). */
class HoldProbe {
  async hold(tag, ctx) {
    say(`entered ${tag}`);
    await new Promise((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', resolve, { once: true })));
    say(`aborted ${tag} ${now()}`);
    throw ctx.signal.reason;
  }
}
Reflect.decorate(
  [
    McpTool({ name: 'hold', description: 'Runs as a task until it is cancelled', task: true }),
    (target, key) => McpArg('tag', { description: 'Names the run in the probe lines' })(target, key, 0),
    (target, key) => ToolContext()(target, key, 1),
    Reflect.metadata('design:paramtypes', [String, Object]),
  ],
  HoldProbe.prototype,
  'hold',
  Object.getOwnPropertyDescriptor(HoldProbe.prototype, 'hold'),
);
Injectable()(HoldProbe);

/** `touch` announces, on the instance it is called on, that the resource at `uri` changed. */
function addTouch(registry) {
  const uri = { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] };
  registry.addTool({ name: 'touch', description: 'Announces that the resource at `uri` changed', inputSchema: uri }, ({ uri: touched }) => {
    registry.notifyResourceUpdated(touched);
    return `touched ${touched}`;
  });
  return true;
}

class BusInstanceModule {}
Module({
  imports: [HttpAppModule],
  providers: [HoldProbe, { provide: 'TOUCH_PROBE', inject: [McpRegistry], useFactory: addTouch }],
})(BusInstanceModule);

const app = await createHttpApp(BusInstanceModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT), '127.0.0.1');
say(`listening ${process.env.PORT}`);
