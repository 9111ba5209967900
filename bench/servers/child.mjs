// Bench-only plumbing shared by every server child: report the port, answer RSS / GC requests over IPC.
// (The GC hook lives here, in the bench fixture, never in lib/.)
import { readFileSync, writeFileSync } from 'node:fs';

/** The kernel's peak RSS of this process in bytes (VmHWM), or 0 where /proc is unavailable. */
function vmHwm() {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Announces readiness and serves { cmd: 'rss' | 'gc' | 'exit' } messages from the parent. */
export function serveIpc(port) {
  let peakRss = process.memoryUsage().rss;
  let hwmIsReset = false;
  // Sample RSS every 20 ms so the parent can ask for the peak over an interval.
  const sampler = setInterval(() => {
    const rss = process.memoryUsage().rss;
    if (rss > peakRss) peakRss = rss;
  }, 20);
  sampler.unref();
  process.on('message', (msg) => {
    if (!msg || typeof msg !== 'object') return;
    const reply = (data) => process.send?.({ id: msg.id, ...data });
    switch (msg.cmd) {
      case 'rss':
        reply(process.memoryUsage());
        break;
      case 'peak-reset':
        // Linux: writing 5 to clear_refs resets VmHWM (the kernel's peak RSS); the sampler is the fallback.
        try {
          writeFileSync('/proc/self/clear_refs', '5');
          hwmIsReset = true;
        } catch {
          /* not Linux, or not allowed */
        }
        peakRss = process.memoryUsage().rss;
        reply({ rss: peakRss });
        break;
      case 'peak':
        reply({ peak: Math.max(peakRss, process.memoryUsage().rss, hwmIsReset ? vmHwm() : 0) });
        break;
      case 'gc': {
        if (typeof globalThis.gc !== 'function') return reply({ error: 'start the child with --expose-gc' });
        // A few full collections, with a turn of the event loop between them, so finalizers run.
        let rounds = 0;
        const step = () => {
          globalThis.gc();
          if (++rounds < 4) setTimeout(step, 50);
          else reply(process.memoryUsage());
        };
        step();
        break;
      }
      case 'exit':
        reply({ ok: true });
        setTimeout(() => process.exit(0), 10);
        break;
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true, port, pid: process.pid });
}

/** The Nest app of `AppModule` on Express, or on Fastify with MCP_HTTP_ADAPTER=fastify (as the sample chooses). */
export async function createApp(AppModule, options) {
  const { NestFactory } = await import('@nestjs/core');
  if (process.env.MCP_HTTP_ADAPTER !== 'fastify') return NestFactory.create(AppModule, options);
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  return NestFactory.create(AppModule, new FastifyAdapter(), options);
}
