import * as nodeModule from 'node:module';

/**
 * The sample as a local MCP server for desktop clients (`npm run start:stdio`); see serve-stdio.ts.
 *
 * Most of a stdio start is spent loading modules. Node's on-disk compile cache (22.1+, in the OS temp
 * folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off) spares every later start compiling them again.
 * It covers only modules loaded after it is enabled, hence the dynamic import.
 */
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./serve-stdio.js');
