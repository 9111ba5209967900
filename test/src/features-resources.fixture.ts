import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpModule, McpResource, McpResourceTemplate, ResourceContext, ResourceNotFoundError, type McpResourceContext } from '../../lib/index.js';

export const FEATURES_BYTES = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);

/** Resources covering each return shape, template conversion and cache hints. */
@Injectable()
export class FeaturesResources {
  @McpResource({ uri: 'notes://text', name: 'text-note', title: 'A text note', description: 'Plain text', mimeType: 'text/plain' })
  textNote(@ResourceContext() context: McpResourceContext): string {
    return `text at ${context.uri}`;
  }

  @McpResource({ uri: 'notes://bytes', name: 'bytes', description: 'Binary', mimeType: 'application/octet-stream', size: 9 })
  bytes(): Buffer {
    return FEATURES_BYTES;
  }

  @McpResource({ uri: 'notes://view', name: 'uint8-view', description: 'A Uint8Array view into a larger buffer' })
  view(): Uint8Array {
    return new Uint8Array(FEATURES_BYTES.buffer.slice(0), FEATURES_BYTES.byteOffset + 3, 3);
  }

  @McpResource({ uri: 'notes://object', name: 'object', description: 'A contents object', cache: { ttlMs: 60000, cacheScope: 'public' } })
  object() {
    return { text: '{"a":1}', mimeType: 'application/json' };
  }

  @McpResource({ uri: 'notes://folder', name: 'folder', description: 'Several contents', cache: { ttlMs: 5 } })
  folder() {
    return [
      { uri: 'notes://folder/a.txt', text: 'a', mimeType: 'text/plain' },
      { uri: 'notes://folder/b.bin', blob: Buffer.from('b').toString('base64') },
      'c',
    ];
  }

  @McpResource({ uri: 'notes://empty', name: 'empty', description: 'Returns nothing: does not exist' })
  empty() {
    return [];
  }

  @McpResource({ uri: 'notes://broken', name: 'broken', description: 'Throws' })
  broken(): string {
    throw new Error('disk on fire at /var/secret');
  }

  @McpResourceTemplate({
    uriTemplate: 'items://{id}/detail',
    name: 'item',
    title: 'Item',
    description: 'An item by integer id',
    mimeType: 'application/json',
    cache: { ttlMs: 1234, cacheScope: 'public' },
  })
  item(@McpArg('id', { description: 'Item id', schema: { type: 'integer' } }) id: number) {
    if (id > 100) return [];
    return JSON.stringify({ id, type: typeof id, double: id * 2 });
  }

  @McpResourceTemplate({ uriTemplate: 'files://{+path}', name: 'file', description: 'A file path (reserved expansion)' })
  file(@McpArg('path') path: string) {
    // A handler that looks the resource up answers a missing one as the module does.
    if (path.startsWith('missing/')) throw new ResourceNotFoundError(`files://${path}`);
    return `file ${path}`;
  }

  @McpResourceTemplate({ uriTemplate: 'flags://{name}/{on}', name: 'flag', description: 'A boolean variable' })
  flag(@McpArg('name') name: string, @McpArg('on') on: boolean) {
    return JSON.stringify({ name, on });
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-resources', version: '1.0.0', pageSize: 2, cache: { ttlMs: 30000, cacheScope: 'public' } })],
  providers: [FeaturesResources],
})
export class FeaturesResourcesModule {}

/** The same resources with the default cache settings. */
@Module({
  imports: [McpModule.forRoot({ name: 'features-resources-default', version: '1.0.0' })],
  providers: [FeaturesResources],
})
export class FeaturesResourcesDefaultModule {}
