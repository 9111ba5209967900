/**
 * The enhancer, filter, scope and auth suites once more, with `MOCAPI_INVOKER=nest`: every handler
 * goes through Nest's ExternalContextCreator, none is called directly. The same expectations hold on
 * both paths (the files themselves run on the default one, where methods nothing enhances are called
 * directly). The variable is read when an app resolves its settings, so it is set before any import.
 */
process.env.MOCAPI_INVOKER = 'nest';

await import('./nest-enhancers.e2e-spec.js');
await import('./module-scope.e2e-spec.js');
await import('./nest-auth.e2e-spec.js');
await import('./tools.e2e-spec.js');
