import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findBinary, freePort, missingBinary, startNginx, startRedis, type LocalService } from './support/local-services.js';
import { createTask, pollTask, taskCall } from './support/tasks-http.js';
import { StreamText } from './support/waiting.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The sample over HTTP, built (`npm run build`), as the stdio tests use dist/sample/main-stdio.js. */
const ENTRY = 'dist/sample/main.js';
const redisServer = findBinary('redis-server');
const nginx = findBinary('nginx');

interface Instance {
  child: ChildProcess;
  url: string;
}

/** Starts one sample process on a free port, sharing `redisUrl`; resolves once it logged its endpoint (it listens by then). */
async function startSample(redisUrl: string): Promise<Instance> {
  const port = await freePort();
  // A 3 s lease, renewed every second: the live instance keeps it through a stall of a busy machine; the killed one loses it soon.
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', MOCAPI_STORE_REDIS_URL: redisUrl, MOCAPI_TASKS_LEASE: 'PT3S' };
  const child = spawn(process.execPath, [ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new StreamText(`the sample on port ${port}`, child.stdout!, child.stderr!).contains('MCP endpoint: ');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

describe('A task whose instance is killed (kill -9, behind nginx, one real Redis)', () => {
  if (!redisServer || !nginx) {
    missingBinary(redisServer ? 'nginx' : 'redis-server', 'the instance-death test');
    return;
  }
  let redis: LocalService & { url: string };
  let proxy: LocalService & { url: string };
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    [a, b] = await Promise.all([startSample(redis.url), startSample(redis.url)]);
    proxy = await startNginx(nginx, [new URL(a.url).port, new URL(b.url).port].map(Number));
  });

  afterAll(async () => {
    for (const instance of [a, b]) if (instance && instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGTERM');
    await proxy?.stop();
    await redis?.stop();
  });

  it('reads as failed (-32603) on the surviving instance once the lease of the killed one runs out', async () => {
    // Created and answered on A, so A runs the report; polled through nginx, which reaches both.
    const { taskId } = (await createTask(a.url, 'quarterly-report', { pages: 20 })).body.result;
    const asked = await pollTask(proxy.url, taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests);
    await taskCall(a.url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { confirmed: true } } } });
    const running = await pollTask(proxy.url, taskId, (task) => typeof task.statusMessage === 'string' && task.statusMessage.startsWith('1/20'));
    expect(running.status).toBe('working');

    a.child.kill('SIGKILL');
    const failed = await pollTask(proxy.url, taskId, (task) => task.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed.error.message).toMatch(/instance running this task stopped/);
    // B, which never ran it, answers the same.
    expect((await taskCall(b.url, 'tasks/get', { taskId })).body.result.status).toBe('failed');
  }, 60_000);
});
