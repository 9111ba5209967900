// The layering of lib/ (issues 14 and 25), checked by `npm run lint:deps`. It cruises lib/'s production files:
// specs are not scanned (a test may reach across layers), but a production import of one is caught.
//
// The request path, top to bottom. A layer may import the layers below it, never one above.
const REQUEST_PATH = [
  { layer: 'transport', path: '^lib/transport/' },
  { layer: 'dispatch', path: '^lib/dispatch/' },
  { layer: 'methods', path: '^lib/(methods|pipeline)/' },
  { layer: 'invocation', path: '^lib/invocation/' },
  { layer: 'results', path: '^lib/(results|content)/' },
];
const ON_PATH = '^lib/(transport|dispatch|methods|pipeline|invocation|results|content)/';
// The composition root: the module and the public index wire every layer together.
const ROOT = '^lib/(mcp\\.module|index)\\.ts$';
const SPEC = '\\.(spec|e2e-spec)\\.ts$';

// External packages, matched as resolved (a file under node_modules) and, when not installed, by module name.
const npm = (...names) => names.flatMap((name) => [`(^|/)node_modules/(@types/)?${name}/`, `^${name}(/|$)`]);
const HTTP = [
  '^(node:)?(http|https|http2)$',
  ...npm('express', 'express-serve-static-core', 'raw-body', 'body-parser', '@nestjs/platform-express'),
  ...npm('fastify', '@fastify/[^/]+', '@nestjs/platform-fastify'),
];
const REDIS = npm('ioredis', '@ioredis/[^/]+', 'redis', '@redis/[^/]+');
const SCHEMA_LIBRARIES = npm('zod', 'valibot', 'arktype', '@ark/[^/]+', '@standard-schema/[^/]+');
// Nest 12's exports map lets any file be imported ("./*": "./*.js"), and `@nestjs/core/internal` and
// `@nestjs/common/internal` are entry points for Nest's own packages: any file but the package's index.
const NEST_INTERNALS = ['(^|/)node_modules/@nestjs/(core|common)/(?!index\\.(js|d\\.ts)$)', '^@nestjs/(core|common)/'];
const NEST_ADAPTER = '^lib/invocation/nest-adapter\\.ts$';

const alternation = (paths) => paths.map((p) => `(${p})`).join('|');

const upwardRules = REQUEST_PATH.slice(1).map(({ layer, path }, index) => ({
  name: `request-path-${layer}-not-up`,
  comment: `${layer} is below ${REQUEST_PATH.slice(0, index + 1).map((above) => above.layer).join(', ')} on the request path: it must not import them`,
  severity: 'error',
  from: { path },
  to: { path: alternation(REQUEST_PATH.slice(0, index + 1).map((above) => above.path)), pathNot: path },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Files must not import each other in a circle',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders of lib/ must not depend on each other in a circle',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'http-only-at-the-edges',
      comment: 'Only lib/transport/ runs HTTP code (Node, Express, Fastify); every other layer gets the request as unknown',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/transport/' },
      // A type-only import runs nothing: McpExecutionContext.getHttpRequest<T = IncomingMessage>() names the
      // type for users' guards, and auth/ names IncomingMessage, while the request itself arrives as unknown.
      to: { path: HTTP, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'redis-only-in-store',
      comment: 'Only lib/store/ knows Redis: everything else goes through McpStore, so Redis stays an optional peer',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/store/' },
      to: { path: REDIS },
    },
    {
      name: 'nest-internals-only-in-the-adapter',
      comment: 'Only invocation/nest-adapter.ts reaches past the index of @nestjs/core and @nestjs/common, so a Nest release that moves its internals breaks one file, pinned by its contract spec',
      severity: 'error',
      from: { path: '^lib/', pathNot: NEST_ADAPTER },
      to: { path: NEST_INTERNALS },
    },
    {
      name: 'no-schema-libraries',
      comment: 'zod, valibot and arktype are the user\'s choice: lib/ imports none, and names Standard Schema only through types it declares itself',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: SCHEMA_LIBRARIES },
    },
    {
      name: 'transport-is-the-top',
      comment: 'Only the composition root imports a transport',
      severity: 'error',
      from: { path: '^lib/', pathNot: ['^lib/transport/', ROOT] },
      to: { path: '^lib/transport/' },
    },
    ...upwardRules,
    {
      name: 'off-path-not-up',
      comment: 'Folders off the request path (definitions, registry, schema, mrtr, ...) serve it; they do not call up into its handling layers',
      severity: 'error',
      from: { path: '^lib/[^/]+/', pathNot: ON_PATH },
      to: { path: '^lib/(transport|dispatch|methods|pipeline)/' },
    },
    {
      name: 'protocol-is-a-leaf',
      comment: 'protocol/ (wire types, errors, envelope) may be imported by every layer and imports nothing of ours but itself',
      severity: 'error',
      from: { path: '^lib/protocol/' },
      to: { path: '^lib/', pathNot: '^lib/protocol/' },
    },
    {
      name: 'config-imports-no-feature',
      comment: 'config/ reads options and settings: it may import protocol/, interfaces/ and the root constants, no feature folder',
      severity: 'error',
      from: { path: '^lib/config/' },
      to: { path: '^lib/', pathNot: '^lib/((config|protocol|interfaces)/|mcp\\.(constants|messages)\\.ts$)' },
    },
    {
      name: 'no-spec-in-production',
      comment: 'Production code must not import a spec or test file',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: SPEC },
    },
    {
      name: 'testing-is-its-own-entry',
      comment: 'lib/testing/ is the nest-mcp/testing entry point: nothing of the main entry may import it, so it never loads with nest-mcp',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/testing/' },
      to: { path: '^lib/testing/' },
    },
    {
      name: 'lib-stands-alone',
      comment: 'lib/ is what ships: it must not import sample/, test/ or bench/ (specs may use test/ helpers)',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(sample|test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', SPEC] },
    // Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // lint:deps ignores the imports listed in scripts/deps-known-violations.json (lib/ still has them, to fix
    // there) and fails when one is gone: shrink the list with `--baseline <that file> --baseline-mode shrink-only`.
    baseline: { staleEntriesSeverity: 'error' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
