import { Injectable } from '@nestjs/common';
import { McpArg, McpResource, McpResourceTemplate } from 'nest-mcp';

// A Map, not an object literal: users://constructor/profile must not find Object's constructor.
const USERS = new Map([
  ['1', { name: 'Ada', plan: 'pro' }],
  ['2', { name: 'Linus', plan: 'team' }],
]);

@Injectable()
export class DocsResources {
  @McpResource({
    uri: 'docs://readme',
    name: 'readme',
    title: 'Sample README',
    description: 'What this sample server offers',
    mimeType: 'text/markdown',
    cache: { ttlMs: 60_000, cacheScope: 'public' },
  })
  readme(): string {
    return '# nest-mcp sample\n\nTools, prompts, resources and elicitation, served from a Nest app.';
  }

  @McpResource({ uri: 'docs://logo.png', name: 'logo', description: 'A 1×1 PNG', mimeType: 'image/png' })
  logo(): Buffer {
    return Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  }

  @McpResourceTemplate({ uriTemplate: 'users://{id}/profile', name: 'user-profile', description: 'A user profile', mimeType: 'application/json' })
  userProfile(@McpArg('id', { description: 'The user id' }) id: string) {
    const user = USERS.get(id);
    // Returning nothing means "no such resource": the client gets -32602 with the URI.
    return user ? JSON.stringify({ id, ...user }) : [];
  }
}
