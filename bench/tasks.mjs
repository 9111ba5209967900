// `npm run bench:tasks`: tasks created → completed per second for a trivial task tool, with the task
// records in memory and in a real redis-server (started on a free loopback port; skipped when the binary
// is missing). One in-process app on loopback; clients poll `tasks/get` without waiting, so the figure is
// the server's cost per task (create, run, record updates, reads), not the suggested poll interval.
// Prints figures; asserts nothing about time.
//   node bench/tasks.mjs [--quick]     (after `npm run build`)
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpArg, McpModule, McpTool } from 'nest-mcp';
import { median, sleep, startRedis } from './harness.mjs';


const QUICK = process.argv.includes('--quick');
const RUNS = 3;
const TASKS = QUICK ? 200 : 1_000;
const CONCURRENCY = 20;
const PROTOCOL = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

class ReportTools {
  square(n) {
    return n * n;
  }
}
const proto = ReportTools.prototype;
Reflect.defineMetadata('design:paramtypes', [Number], proto, 'square');
Reflect.defineMetadata('design:returntype', Number, proto, 'square');
McpArg('n', { description: 'A number' })(proto, 'square', 0);
const descriptor = Object.getOwnPropertyDescriptor(proto, 'square');
McpTool({ name: 'square', description: 'Squares a number, as a task', task: true })(proto, 'square', descriptor);
Object.defineProperty(proto, 'square', descriptor);
Injectable()(ReportTools);

async function startApp(store) {
  class AppModule {}
  Module({ imports: [McpModule.forRoot({ name: 'bench-tasks', version: '1.0.0', ...(store ? { store: { redisUrl: store } } : {}) })], providers: [ReportTools] })(AppModule);
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  return { app, url: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp` };
}

let nextId = 0;
async function rpc(url, method, params, name) {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
      },
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(body),
  });
  const message = await response.json();
  if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
  return message.result;
}

/** Creates one task and polls it to `completed`; checks the result. */
async function oneTask(url, n) {
  const created = await rpc(url, 'tools/call', { name: 'square', arguments: { n } }, 'square');
  if (created.resultType !== 'task') throw new Error(`expected a task, got ${JSON.stringify(created)}`);
  for (;;) {
    const task = await rpc(url, 'tasks/get', { taskId: created.taskId }, created.taskId);
    if (task.status === 'completed') {
      if (task.result?.structuredContent?.result !== n * n && task.result?.content?.[0]?.text !== String(n * n)) {
        throw new Error(`wrong result ${JSON.stringify(task.result)}`);
      }
      return;
    }
    if (task.status !== 'working') throw new Error(`task ended ${task.status}`);
    await sleep(1);
  }
}

async function tasksPerSecond(url) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    let left = TASKS;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await oneTask(url, left);
      }),
    );
    rates.push(TASKS / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const rows = [];

const memory = await startApp(undefined);
try {
  rows.push(['in memory', `${fmt(await tasksPerSecond(memory.url))} tasks/s`]);
} finally {
  await memory.app.close();
}

const redis = await startRedis();
if (redis) {
  const onRedis = await startApp(redis.url);
  try {
    rows.push(['Redis (loopback)', `${fmt(await tasksPerSecond(onRedis.url))} tasks/s`]);
  } finally {
    await onRedis.app.close();
    await redis.store.close();
    redis.stop();
  }
} else {
  rows.push(['Redis', 'skipped: redis-server not installed (apt-get install -y redis-server)']);
}

console.log(`\ntask tool created → completed (median of ${RUNS} runs of ${TASKS} tasks, ${CONCURRENCY} clients)\n`);
console.log('| task store | throughput |');
console.log('|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
