// `npm run build:stdio` (after `npm run build`): the stdio sample bundled, so that a desktop client's start
// reads two files instead of resolving, reading and compiling ~1,400 (docs/guide/stdio.md has the figures):
//   dist/sample/main-stdio.bundle.js   the launcher: turns Node's compile cache on, then imports the server;
//   dist/sample/serve-stdio.bundle.js  the server with Nest and every dependency, one file the cache keeps compiled.
// It bundles tsc's output, not the TypeScript sources: esbuild does not emit the decorator metadata
// (`design:paramtypes`) that Nest injects by; tsc does.
//   node scripts/bundle-stdio.mjs [launcher] [server]   (defaults: dist/sample/main-stdio.js dist/sample/serve-stdio.js)
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bundled = (file) => `${path.basename(file, '.js')}.bundle.js`;

/** Bundles `server` and `launcher` (which imports it) into `<name>.bundle.js` beside the server; `bench/stdio-start.mjs` calls it too. */
export async function bundleStdio(launcherFile = 'dist/sample/main-stdio.js', serverFile = 'dist/sample/serve-stdio.js') {
  const [launcher, server] = [launcherFile, serverFile].map((file) => path.resolve(file));
  const outdir = path.dirname(server);

  /** The launcher's import of the server loads the server's bundle, once the launcher has turned the compile cache on. */
  const serverBundle = {
    name: 'server-bundle',
    setup(bundler) {
      bundler.onResolve({ filter: /^\./ }, (args) =>
        path.resolve(args.resolveDir, args.path) === server && args.importer === launcher ? { path: `./${bundled(server)}`, external: true } : undefined,
      );
    },
  };

  /**
   * Each bundled module keeps its own `import.meta.url`, written relative to the bundle so that the bundle
   * and the dist tree beside it can move together: `new URL('forecast.html', import.meta.url)` still
   * finds the file next to that module's compiled file.
   */
  const ownModuleUrls = {
    name: 'own-module-urls',
    setup(bundler) {
      bundler.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };

  /**
   * `node:http` imported by ES module code (Nest's) is loaded through `require()` instead. An `import` of a
   * built-in makes Node build its ES module facade, which reads every export, and reading `node:http`'s
   * `WebSocket` loads undici: 4 MB of heap and a few per cent of a start, for nothing a stdio server uses.
   * Through `require()` an export is read where it is used. (The other built-ins' facades cost less
   * than the copies esbuild's `require()` interop makes.)
   */
  const httpThroughRequire = {
    name: 'http-through-require',
    setup(bundler) {
      bundler.onResolve({ filter: /^(node:)?http$/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'required-builtin' } : undefined));
      bundler.onLoad({ filter: /.*/, namespace: 'required-builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };

  /**
   * rxjs as its ES module build (dist/esm), which its package.json offers only to bundlers that are not
   * Node (the `node` condition comes first and names the CommonJS build). Every Nest module importing
   * CommonJS rxjs gets its own copy of its ~300 exports from esbuild's interop; as ES modules it gets the
   * few it names, and unused operators drop out: ~5 % of a start. Every importer gets this one build.
   */
  const rxjsModules = {
    name: 'rxjs-modules',
    setup(bundler) {
      bundler.onResolve({ filter: /^rxjs(\/operators)?$/ }, (args) => {
        const rxjsRoot = path.dirname(createRequire(path.join(args.resolveDir, 'importer.js')).resolve('rxjs/package.json'));
        return { path: path.join(rxjsRoot, 'dist/esm', args.path === 'rxjs' ? '' : 'operators', 'index.js') };
      });
    },
  };

  await build({
    entryPoints: [launcher, server],
    outdir,
    entryNames: '[name].bundle',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Resolve imports as Node does (package.json), not through tsconfig.json's `paths` (the TypeScript sources).
    tsconfigRaw: {},
    // Nest's logs and errors name classes; esbuild may rename them to keep the bundle's scope unique.
    keepNames: true,
    // Half the bytes to read and hash on each start, and less to parse where the compile cache has no
    // code: ~5 % of a start. Stack traces name minified functions; `node --enable-source-maps` maps them back.
    minify: true,
    sourcemap: true,
    // Optional peers and Nest's optional packages stay imports, loaded only if installed and used.
    external: ['ioredis', 'jose', '@nestjs/microservices', '@nestjs/websockets', '@nestjs/platform-express', '@nestjs/platform-fastify'],
    // CommonJS packages inside an ES module bundle call require(): give them Node's.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [serverBundle, ownModuleUrls, httpThroughRequire, rxjsModules],
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleStdio(process.argv[2], process.argv[3]);
