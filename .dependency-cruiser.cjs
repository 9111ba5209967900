// The layering of lib/, checked by `npm run lint:deps` and proven to bite by
// `npm run lint:deps:selftest` (scripts/deps-selftest.mjs). It cruises lib/'s production files:
// specs are not scanned (a test may reach across layers), but a production import of one is caught.
//
// lib/ in tiers, top to bottom: a file may import files of its own tier or a lower one, never a higher one.
// An entry is a folder of lib/, a root file, or one file set apart from its folder (the most specific entry
// wins). The tiers marked `path` are the request path; its upward imports are named request-path-*.
const TIERS = [
  { tier: 'root', entries: ['index.ts', 'mcp.module.ts'] }, // the composition root wires every tier together
  { tier: 'transport', path: true, entries: ['transport'] },
  { tier: 'era', path: true, entries: ['era'] }, // which era speaks, and the 2025 sessions: transports call it, it calls dispatch
  { tier: 'dispatch', path: true, entries: ['dispatch'] },
  { tier: 'methods', path: true, entries: ['methods', 'pipeline'] },
  { tier: 'discovery', entries: ['discovery'] }, // startup: scans providers into the registry
  { tier: 'routes', entries: ['routes'] }, // controller routes as tools: found by discovery, called through invocation
  { tier: 'features', entries: ['skills', 'apps', 'tasks', 'playground', 'server-card', 'testing'] }, // served by the layers above
  { tier: 'registry', entries: ['registry'] }, // above invocation: it holds the McpInvocation handles invocation/ builds
  { tier: 'invocation', path: true, entries: ['invocation'] },
  { tier: 'context', entries: ['context'] },
  { tier: 'in-call', entries: ['mrtr', 'elicitation', 'progress'] }, // what a handler does mid-call
  { tier: 'settings', entries: ['config', 'auth', 'telemetry'] }, // built from the module options
  // The module options: the token, and the type that names every feature's options (and the barrel re-exporting it).
  { tier: 'options', entries: ['mcp.module-definition.ts', 'interfaces/mcp-module-options.interface.ts', 'interfaces/index.ts'] },
  { tier: 'store', entries: ['store', 'bus', 'auth/mcp-auth.interfaces.ts'] }, // what McpModuleOptions names: McpStore, McpBus, McpAuthOptions
  { tier: 'results', path: true, entries: ['results'] },
  { tier: 'declarations', entries: ['decorators', 'definitions'] }, // handler metadata: decorators write it, definitions read it
  { tier: 'shapes', entries: ['schema', 'interfaces'] }, // JSON Schema tools, handler shapes and enums
  // Nest's route metadata keys sit apart from invocation/: they import nothing of lib/, and decorators/ write under one.
  { tier: 'constants', entries: ['mcp.constants.ts', 'mcp.messages.ts', 'node-floor.ts', 'optional-peer.ts', 'invocation/nest-route-metadata.ts'] },
  { tier: 'protocol', entries: ['protocol'] }, // wire types, errors, envelope: every tier may import it, it imports nothing of ours
];
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
const NEST_ADAPTER = '^lib/invocation/nest-(adapter|route-metadata)\\.ts$';
// Any file of Express's router or Fastify but the package's entry, and of Nest's HTTP adapters but their index.
const HTTP_FRAMEWORK_INTERNALS = [
  '(^|/)node_modules/(express|router|fastify|@nestjs/platform-(express|fastify))/(?!(index|fastify)\\.(js|d\\.ts)$|package\\.json$)',
  '^(express|router|fastify|@nestjs/platform-(express|fastify))/',
];
const HTTP_INTERNALS_ROOMS = '^lib/transport/http/(express|fastify)-internals\\.ts$';

const ENTRIES = TIERS.flatMap((t) => t.entries);
const pathOf = (entry) => (entry.endsWith('.ts') ? `^lib/${entry.replaceAll('.', '\\.')}$` : `^lib/${entry}/`);
// The files of some entries: their paths, less the files set apart in an entry of their own elsewhere.
const filesOf = (entries) => {
  const apart = ENTRIES.filter((other) => !entries.includes(other) && entries.some((entry) => other.startsWith(`${entry}/`)));
  return { path: entries.map(pathOf), ...(apart.length > 0 && { pathNot: apart.map(pathOf) }) };
};
const names = (tiers) => tiers.map((t) => t.tier).join(', ');

const tierRules = TIERS.slice(1).flatMap((tier, index) => {
  const above = TIERS.slice(0, index + 1);
  // Between two request-path layers the request-path rule speaks; the tier rule covers the rest.
  const pathAbove = tier.path ? above.filter((t) => t.path) : [];
  const offPathAbove = tier.path ? above.filter((t) => !t.path) : above;
  return [
    pathAbove.length > 0 && {
      name: `request-path-${tier.tier}-not-up`,
      comment: `${tier.tier} is below ${names(pathAbove)} on the request path: it must not import them`,
      severity: 'error',
      from: filesOf(tier.entries),
      to: filesOf(pathAbove.flatMap((t) => t.entries)),
    },
    {
      name: `tier-${tier.tier}-not-up`,
      comment: `${tier.entries.join(', ')} sit below ${names(offPathAbove)}: they must not import them`,
      severity: 'error',
      from: filesOf(tier.entries),
      to: filesOf(offPathAbove.flatMap((t) => t.entries)),
    },
  ].filter(Boolean);
});

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
    ...tierRules,
    {
      name: 'every-file-in-a-tier',
      comment: 'A new folder or root file of lib/ gets a place in TIERS, or the tier rules would not see it',
      severity: 'error',
      from: { path: '^lib/', pathNot: ENTRIES.map(pathOf) },
      to: {},
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
      comment: 'Only lib/store/ and lib/bus/ know Redis: everything else goes through McpStore and McpBus, so Redis stays an optional peer',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/(store|bus)/' },
      to: { path: REDIS },
    },
    {
      name: 'nest-internals-only-in-the-adapter',
      comment: 'Only invocation/nest-adapter.ts (calling handlers) and invocation/nest-route-metadata.ts (reading routes) reach past the index of @nestjs/core and @nestjs/common, so a Nest release that moves its internals breaks two files, pinned by their contract spec',
      severity: 'error',
      from: { path: '^lib/', pathNot: NEST_ADAPTER },
      to: { path: NEST_INTERNALS },
    },
    {
      name: 'http-framework-internals-in-their-rooms',
      comment: 'Only transport/http/express-internals.ts and fastify-internals.ts reach past the entry of Express, its router, Fastify or Nest\'s HTTP adapters, so an upgrade that moves their internals breaks two files, pinned by their contract specs',
      severity: 'error',
      from: { path: '^lib/', pathNot: HTTP_INTERNALS_ROOMS },
      to: { path: HTTP_FRAMEWORK_INTERNALS },
    },
    {
      name: 'no-schema-libraries',
      comment: 'zod, valibot and arktype are the user\'s choice: lib/ imports none, and names Standard Schema only through types it declares itself',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: SCHEMA_LIBRARIES },
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
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
