// Bench-only plumbing shared by every server child: report the port, answer RSS / GC requests over IPC.
// (The GC hook lives here, in the bench fixture, never in lib/.)
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';

/** The kernel's peak RSS of this process in bytes (VmHWM), or 0 where /proc is unavailable. */
function vmHwm() {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Bytes the JS heap allocated since `start()`: what each GC found in use before it ran, minus what the
 * previous one left, plus what is in use now beyond the last GC's leftovers (V8 keeps no running total).
 */
export function allocationMeter() {
  let profiler;
  let baseline = 0;
  return {
    start() {
      profiler?.stop();
      profiler = new v8.GCProfiler();
      baseline = v8.getHeapStatistics().used_heap_size;
      profiler.start();
    },
    stop() {
      const { statistics } = profiler.stop();
      profiler = undefined;
      let allocated = 0;
      let previousAfter = baseline;
      for (const gc of statistics) {
        allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - previousAfter);
        previousAfter = gc.afterGC.heapStatistics.usedHeapSize;
      }
      allocated += Math.max(0, v8.getHeapStatistics().used_heap_size - previousAfter);
      return { allocated, gcs: statistics.length, gcMs: statistics.reduce((sum, gc) => sum + gc.cost, 0) / 1000 };
    },
  };
}

/** The inspector's sampling heap profiler, summed per allocating function (self bytes) for the parent. */
const heapSampler = {
  session: undefined,
  async start() {
    this.session = new Session();
    this.session.connect();
    await this.session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  },
  async stop() {
    const { profile } = await this.session.post('HeapProfiler.stopSampling');
    this.session.disconnect();
    const bytes = new Map();
    const walk = (node, stack) => {
      const frame = node.callFrame;
      const here = `${frame.functionName || '(anonymous)'} @ ${frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`;
      const caller = stack.find((entry) => entry.includes('dist/lib/')) ?? '';
      // HEAP_BY=lib: every byte charged to the innermost lib/ frame under which it was allocated.
      const libFrame = here.includes('dist/lib/') ? here : caller;
      const key = process.env.HEAP_BY === 'lib' ? libFrame || '(outside lib/)' : `${here}${caller && caller !== here ? `  <- ${caller}` : ''}`;
      if (node.selfSize) bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child, [here, ...stack]);
    };
    walk(profile.head, []);
    return [...bytes].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.HEAP_TOP ?? 60));
  },
};

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
  const meter = allocationMeter();
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
      case 'meter-start':
        // CPU time and heap allocation over a load run: µs and bytes per call, independent of the box's load.
        meter.start();
        reply({ cpu: process.cpuUsage() });
        break;
      case 'meter-stop':
        reply({ cpu: process.cpuUsage(), ...meter.stop() });
        break;
      case 'heap-sample-start':
        // Sampled allocations with their stacks, collected objects included (what a call costs the GC).
        heapSampler.start().then(() => reply({ ok: true }));
        break;
      case 'heap-sample-stop':
        heapSampler.stop().then((top) => reply({ top }));
        break;
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
