import { Controller, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryModule, ModulesContainer } from '@nestjs/core';
import { declaringDirectory } from './config/declaring-file.js';
import { resolveMcpSettings, type McpSettings } from './config/mcp-settings.js';
import { McpBearerAuthGuard } from './transport/http/mcp-bearer-auth.guard.js';
import { McpAuthService } from './auth/mcp-auth.service.js';
import { createProtectedResourceController } from './transport/http/protected-resource.controller.js';
import { McpMetadataAccessor } from './discovery/mcp-metadata.accessor.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpRouteTools } from './routes/index.js';
import { McpRegistry } from './registry/mcp.registry.js';
import { McpInvokerFactory } from './invocation/invoker.factory.js';
import { NestAdapter } from './invocation/nest-adapter.js';
import { MCP_METHOD_FAMILIES } from './methods/index.js';
import { McpCallPipeline } from './pipeline/call-pipeline.js';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { MCP_ENDPOINT_BINDING, MCP_SETTINGS } from './mcp.constants.js';
import { DUPLICATE_ENDPOINT } from './mcp.messages.js';
import {
  MCP_ASYNC_OPTIONS_TYPE,
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS_TYPE,
  McpConfigurableModule,
} from './mcp.module-definition.js';
import { McpDispatcher } from './dispatch/mcp.dispatcher.js';
import { MethodTable } from './dispatch/method-table.js';
import { requestStateCodecProvider, requestStateServicesProvider, sealKeysProvider, sealSecretProvider } from './mrtr/request-state.provider.js';
import { ERA_PROVIDERS } from './era/index.js';
import { McpCustomMethods } from './registry/custom-methods.js';
import { McpChangeFanOut, McpFleet } from './registry/change-notifications.js';
import { mcpBusProvider, McpConnectionsCloser } from './bus/bus.provider.js';
import { InFlightRequests } from './dispatch/in-flight-requests.js';
import { fairSharesProvider, mcpStoreProvider } from './store/store.provider.js';
import { TaskRunner } from './tasks/task-runner.js';
import { McpSkills } from './skills/index.js';
import { McpTelemetry } from './telemetry/mcp-telemetry.js';
import { createMcpController, requireBearerAuth } from './transport/http/mcp.controller.js';
import { McpHttpEdge } from './transport/http/http-edge.js';
import { McpHttpTransport } from './transport/http/mcp-http.transport.js';
import { OriginPolicy } from './transport/http/origin.policy.js';
import { createPlaygroundController } from './transport/http/playground.controller.js';
import { createAiCatalogController, createServerCardController } from './transport/http/server-card.controller.js';
import { McpServerCards, SiteCatalog } from './server-card/index.js';

/** Without a (global) `ConfigService`, the `MOCAPI_*` environment variables still apply. */
const environmentReader = { get: (key: string) => process.env[key] };

/** The endpoints mounted so far, per application (its ModulesContainer), to refuse a second `forRoot()` for one. */
const mountedEndpoints = new WeakMap<ModulesContainer, Set<string>>();

/** Each application's AI Catalog: one for the host, whichever of its endpoints list their cards. */
const siteCatalogs = new WeakMap<ModulesContainer, SiteCatalog>();

/**
 * Serves the Model Context Protocol (2026-07-28) from the application's decorated provider
 * methods, on one Streamable HTTP endpoint (default `/mcp`). Global, like `ScheduleModule`:
 * any module can inject `McpRegistry` to add or remove tools, prompts and resources at run time.
 *
 * @example
 * ＠Module({ imports: [ConfigModule.forRoot(), McpModule.forRoot({ name: 'my-server', version: '1.0.0' })] })
 * export class AppModule {}
 * @publicApi
 */
@Module({})
export class McpModule extends McpConfigurableModule {
  static override forRoot(options: typeof MCP_OPTIONS_TYPE = {}): DynamicModule {
    return withRuntime(super.forRoot(options), declaringDirectory(import.meta.url));
  }

  static override forRootAsync(options: typeof MCP_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withRuntime(super.forRootAsync(options), declaringDirectory(import.meta.url));
  }
}

/** @param declaredIn where the app's module calling `forRoot()` is: relative paths in the options resolve from there. */
function withRuntime(definition: DynamicModule, declaredIn: string | undefined): DynamicModule {
  const controller = createMcpController();
  const wellKnown = createProtectedResourceController();
  const playground = createPlaygroundController();
  const serverCard = createServerCardController();
  const aiCatalog = createAiCatalogController();
  const providers: Provider[] = [
    {
      // One allow-list, shared by the transport and the auth guard (which lets refused origins through to the transport's 403).
      provide: OriginPolicy,
      inject: [MCP_SETTINGS],
      useFactory: (settings: McpSettings) => new OriginPolicy(settings.allowedOrigins, settings.allowedHosts),
    },
    {
      provide: MCP_SETTINGS,
      inject: [MCP_MODULE_OPTIONS, { token: ConfigService, optional: true }],
      useFactory: (options: McpModuleOptions, config?: ConfigService) => resolveMcpSettings(options, config ?? environmentReader, declaredIn),
    },
    {
      // Runs while Nest instantiates providers, which is before it maps controller routes.
      provide: MCP_ENDPOINT_BINDING,
      inject: [MCP_SETTINGS, ModulesContainer, McpAuthService, McpBearerAuthGuard, McpServerCards],
      useFactory: (settings: McpSettings, modules: ModulesContainer, auth: McpAuthService, guard: McpBearerAuthGuard, cards: McpServerCards) => {
        const first = refuseSecondMount(modules, settings.endpoint);
        if (auth.enabled) requireBearerAuth(controller, guard);
        wellKnown.bindEndpoint(settings.endpoint, first);
        playground.bindEndpoint(settings.endpoint);
        serverCard.bindEndpoint(settings.endpoint);
        if (settings.serverCard.served && settings.serverCard.aiCatalog) listInSiteCatalog(modules, cards, aiCatalog);
        return bindEndpoint(controller, settings.endpoint);
      },
    },
    sealKeysProvider,
    sealSecretProvider,
    requestStateCodecProvider,
    ...ERA_PROVIDERS,
    mcpStoreProvider,
    fairSharesProvider,
    mcpBusProvider,
    McpConnectionsCloser,
    InFlightRequests,
    TaskRunner,
    requestStateServicesProvider,
    McpMetadataAccessor,
    McpRegistry,
    McpCustomMethods,
    McpChangeFanOut,
    McpFleet,
    McpExplorer,
    McpRouteTools,
    McpSkills,
    NestAdapter,
    McpInvokerFactory,
    McpCallPipeline,
    ...MCP_METHOD_FAMILIES,
    MethodTable,
    McpDispatcher,
    McpHttpTransport,
    McpHttpEdge,
    McpAuthService,
    McpBearerAuthGuard,
    McpTelemetry,
    McpServerCards,
  ];
  return {
    ...definition,
    global: true,
    imports: [...(definition.imports ?? []), DiscoveryModule],
    controllers: [controller, wellKnown, playground, serverCard, aiCatalog],
    providers: [...(definition.providers ?? []), ...providers],
    exports: [McpRegistry, McpCustomMethods, McpFleet, McpDispatcher, McpTelemetry],
  };
}

/**
 * Returns true for the application's first endpoint.
 * A second `forRoot()` for the same endpoint would mount a second, unreachable server (the first
 * route wins) with its own registry, where run-time additions would silently go nowhere.
 */
function refuseSecondMount(modules: ModulesContainer, endpoint: string): boolean {
  const mounted = mountedEndpoints.get(modules) ?? new Set<string>();
  if (mounted.has(endpoint)) throw new Error(DUPLICATE_ENDPOINT(endpoint));
  mountedEndpoints.set(modules, mounted.add(endpoint));
  return mounted.size === 1;
}

/** Lists the endpoint's card in its application's AI Catalog; the first endpoint listed serves the catalog. */
function listInSiteCatalog(modules: ModulesContainer, cards: McpServerCards, controller: ReturnType<typeof createAiCatalogController>): void {
  const site = siteCatalogs.get(modules) ?? new SiteCatalog();
  siteCatalogs.set(modules, site);
  if (site.list(cards)) controller.bindSite(site);
}

function bindEndpoint(controller: Type, endpoint: string): string {
  Controller(endpoint)(controller);
  return endpoint;
}
