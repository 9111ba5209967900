// A stdio server whose lists change at run time, for the 2025 session notifications over stdio
// (test/stdio.e2e-spec.ts). Plain JavaScript on the built library, so the test can spawn it with node.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { bootstrapStdio, McpModule, McpRegistry } from '../../dist/lib/index.js';

const WATCHED = 'notes://watched';

/** `add-tool` registers another tool (a list change); `touch` announces an update of a resource. */
function registerTriggers(registry) {
  registry.addResource({ uri: WATCHED, name: 'watched', description: 'A resource clients subscribe to' }, () => 'watched');
  const name = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  registry.addTool({ name: 'add-tool', description: 'Registers a tool named `name`', inputSchema: name }, ({ name: added }) => {
    registry.addTool({ name: added, description: 'Added at run time' }, () => `I am ${added}`);
    return `added ${added}`;
  });
  const uri = { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] };
  registry.addTool({ name: 'touch', description: 'Announces that the resource at `uri` changed', inputSchema: uri }, ({ uri: touched }) => {
    registry.notifyResourceUpdated(touched);
    return `touched ${touched}`;
  });
  return true;
}

class StdioFeedsModule {}
Module({
  imports: [McpModule.forRoot({ name: 'stdio-feeds', version: '1.0.0' })],
  providers: [{ provide: 'RUN_TIME_TRIGGERS', inject: [McpRegistry], useFactory: registerTriggers }],
})(StdioFeedsModule);

await bootstrapStdio(StdioFeedsModule);
