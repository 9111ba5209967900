import { Injectable } from '@nestjs/common';
import { McpArg, McpResource, McpResourceTemplate } from 'nest-mcp';
import { PNG_BASE64 } from './fixture-data.js';

/**
 * The resources of the conformance suite. `test://static-text` must stay the first method: the
 * caching scenario reads the first entry of `resources/list`.
 */
@Injectable()
export class ConformanceResources {
  @McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @McpResource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (a PNG)', mimeType: 'image/png' })
  staticBinary(): Buffer {
    return Buffer.from(PNG_BASE64, 'base64');
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'A resource template with an id',
    mimeType: 'application/json',
  })
  templateData(@McpArg('id', { description: 'The data id' }) id: string): string {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }

  @McpResource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients may watch', mimeType: 'text/plain' })
  watchedResource(): string {
    return 'Watched resource content';
  }
}
