import 'reflect-metadata';
import { Injectable, Module, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpArg, McpExecutionContext, McpModule, McpTool } from '../../lib/index.js';

/** Lets a caller with `x-role: admin` see and call the tool. */
@Injectable()
export class HeaderAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (McpExecutionContext.create(context).getHttpRequest() as IncomingMessage | undefined)?.headers['x-role'] === 'admin';
  }
}

@Injectable()
export class FeaturesHeaderTools {
  @McpTool({ name: 'route', description: 'Routes a job to a region' })
  route(
    @McpArg('region', { description: 'Target region', header: 'Region' }) region: string,
    @McpArg('priority', { description: 'Priority', schema: { type: 'integer' }, header: 'Priority' }) priority: number,
    @McpArg('dryRun', { description: 'Dry run', header: 'Dry-Run' }) dryRun: boolean,
    @McpArg('note', { description: 'Not mirrored' }) note: string,
    @McpArg('zone', { description: 'Optional zone', header: 'Zone', required: false }) zone?: string,
  ): string {
    return JSON.stringify({ region, priority, dryRun, note, zone: zone ?? null });
  }
}

/** A tool hidden from callers its guard denies, with a mirrored argument. */
@Injectable()
export class FeaturesHiddenHeaderTool {
  @McpTool({ name: 'secret-route', description: 'Admins only', hideWhenDenied: true })
  @UseGuards(HeaderAdminGuard)
  secretRoute(@McpArg('region', { description: 'Target region', header: 'Region' }) region: string): string {
    return `routed to ${region}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-headers', version: '1.0.0' })],
  providers: [FeaturesHeaderTools, FeaturesHiddenHeaderTool, HeaderAdminGuard],
})
export class FeaturesHeadersModule {}

@Injectable()
export class FeaturesNumberHeaderTool {
  @McpTool({ name: 'bad-number', description: 'Mirrors a number (not allowed)' })
  badNumber(@McpArg('ratio', { header: 'Ratio' }) ratio: number): number {
    return ratio;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'features-bad-number' })], providers: [FeaturesNumberHeaderTool] })
export class FeaturesNumberHeaderModule {}

@Injectable()
export class FeaturesDuplicateHeaderTool {
  @McpTool({ name: 'bad-duplicate', description: 'Two arguments on one header' })
  badDuplicate(@McpArg('a', { header: 'Region' }) a: string, @McpArg('b', { header: 'region' }) b: string): string {
    return a + b;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'features-bad-duplicate' })], providers: [FeaturesDuplicateHeaderTool] })
export class FeaturesDuplicateHeaderModule {}

@Injectable()
export class FeaturesBadTokenHeaderTool {
  @McpTool({ name: 'bad-token', description: 'A header name with a space' })
  badToken(@McpArg('a', { header: 'My Region' }) a: string): string {
    return a;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'features-bad-token' })], providers: [FeaturesBadTokenHeaderTool] })
export class FeaturesBadTokenHeaderModule {}

@Injectable()
export class FeaturesEmptyHeaderTool {
  @McpTool({ name: 'bad-empty', description: 'An empty header name' })
  badEmpty(@McpArg('a', { header: '' }) a: string): string {
    return a;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'features-bad-empty' })], providers: [FeaturesEmptyHeaderTool] })
export class FeaturesEmptyHeaderModule {}
