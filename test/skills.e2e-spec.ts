import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Injectable, Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpModule, McpSkill, type McpSkillContent, type McpSkillOptions } from '../lib/index.js';
import { callMcp, plain, startApp, startupFailure, type Json, type StartedApp } from './support/mcp-http.js';
import { assertLegacyServerMessage, assertMatchesDef } from './support/wire-schema.js';
import { WireRecorder } from './support/wire-recorder.js';

const SKILLS = 'io.modelcontextprotocol/skills';
const digest = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const ALPHA_MD = '---\nname: alpha\ndescription: The first skill.\nmetadata:\n  owner: tests\n---\n\n# Alpha\n\nSee references/GUIDE.md.\n';
const GUIDE_MD = '# Guide\n\nStep one.\n';
/** Not UTF-8: served as a base64 blob, digest over the raw bytes. */
const BINARY = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x41]);
const REFUNDS_MD = '---\nname: refunds\ndescription: Refunds, nested under acme/billing.\n---\nBody.\n';

/** A fresh folder of skills: `alpha` (with a subfolder, a binary, a dot file, a symlink out), and `acme/billing/refunds`. */
function skillsFolder(): { root: string; outside: string } {
  const base = mkdtempSync(path.join(tmpdir(), 'nest-mcp-skills-'));
  const root = path.join(base, 'skills');
  const outside = path.join(base, 'secret.txt');
  writeFileSync(outside, 'top secret, outside the skills folder\n');
  mkdirSync(path.join(root, 'alpha/references'), { recursive: true });
  writeFileSync(path.join(root, 'alpha/SKILL.md'), ALPHA_MD);
  writeFileSync(path.join(root, 'alpha/references/GUIDE.md'), GUIDE_MD);
  writeFileSync(path.join(root, 'alpha/data.bin'), BINARY);
  writeFileSync(path.join(root, 'alpha/.hidden'), 'tooling');
  symlinkSync(outside, path.join(root, 'alpha/leak.txt'));
  mkdirSync(path.join(root, 'acme/billing/refunds'), { recursive: true });
  writeFileSync(path.join(root, 'acme/billing/refunds/SKILL.md'), REFUNDS_MD);
  // Beside the skills, in no skill: never served.
  writeFileSync(path.join(root, 'README.md'), '# the skills of this server\n');
  writeFileSync(path.join(root, 'acme/NOTES.md'), 'notes\n');
  return { root, outside };
}

function skillsModule(directory: string, options: { directoryRead?: boolean } = {}) {
  @Module({ imports: [McpModule.forRoot({ name: 'skills-e2e', version: '1.0.0', skills: { directory, ...options } })] })
  class SkillsModule {}
  return SkillsModule;
}

async function officialClient(url: string): Promise<Client> {
  const client = new Client({ name: 'nest-mcp-skills-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A JSON-RPC error that names no file-system detail (its data may echo the URI the client sent, nothing else). */
function expectCleanError(body: Json, code: number, root: string): void {
  expect(body.error?.code).toBe(code);
  const { data, ...rest } = body.error;
  if (data !== undefined) expect(Object.keys(data)).toEqual(['uri']);
  const text = JSON.stringify(rest);
  expect(text).not.toContain(root);
  expect(text).not.toMatch(/ENOENT|EACCES|ELOOP|no such file|\/tmp\/|\/etc\//);
  expect(text).not.toMatch(/\n\s+at /);
}

describe('skills (SEP-2640) from a folder', () => {
  let folder: { root: string; outside: string };
  let started: StartedApp;
  let client: Client;

  beforeAll(async () => {
    folder = skillsFolder();
    started = await startApp([skillsModule(folder.root)]);
    client = await officialClient(started.url);
  });

  afterAll(async () => {
    await client?.close();
    await started?.app.close();
    rmSync(path.dirname(folder.root), { recursive: true, force: true });
  });

  it('declares the extension with directoryRead, next to resources', () => {
    const capabilities = client.getServerCapabilities() as Json;
    expect(capabilities.extensions[SKILLS]).toEqual({ directoryRead: true });
    expect(capabilities.resources).toBeDefined();
  });

  it('lists every skill with its frontmatter, digests and sizes (the official client verifies each entry)', async () => {
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.ttlMs).toBe(0);
    expect(listing.cacheScope).toBe('private');
    expect(listing.skills.map(plain)).toEqual([
      {
        uri: 'skill://acme/billing/refunds/SKILL.md',
        frontmatter: { name: 'refunds', description: 'Refunds, nested under acme/billing.' },
        resources: [{ uri: 'skill://acme/billing/refunds/SKILL.md', digest: digest(REFUNDS_MD), size: Buffer.byteLength(REFUNDS_MD) }],
      },
      {
        uri: 'skill://alpha/SKILL.md',
        frontmatter: { name: 'alpha', description: 'The first skill.', metadata: { owner: 'tests' } },
        resources: [
          { uri: 'skill://alpha/SKILL.md', digest: digest(ALPHA_MD), size: Buffer.byteLength(ALPHA_MD) },
          { uri: 'skill://alpha/data.bin', digest: digest(BINARY), size: BINARY.length },
          { uri: 'skill://alpha/references/GUIDE.md', digest: digest(GUIDE_MD), size: Buffer.byteLength(GUIDE_MD) },
        ],
      },
    ]);
  });

  it('reads every file through resources/read, and each matches its digest and size (SkillsClient.read checks)', async () => {
    const skills = new SkillsClient(client);
    const alpha = (await skills.get('skill://alpha/SKILL.md')).skill;
    const manifest = await skills.read(alpha);
    expect(manifest).toEqual(expect.objectContaining({ verified: true, mimeType: 'text/markdown', frontmatter: alpha.frontmatter }));
    expect((await skills.read(alpha, 'references/GUIDE.md')).text).toBe(GUIDE_MD);
    const binary = await skills.read(alpha, 'data.bin');
    expect(Buffer.from(binary.bytes)).toEqual(BINARY);
    expect(binary.mimeType).toBe('application/octet-stream');
  });

  it('lists each SKILL.md in resources/list, named and described by its frontmatter; the other files stay unlisted', async () => {
    const { resources } = await client.listResources();
    expect(resources.map(plain)).toEqual([
      { uri: 'skill://acme/billing/refunds/SKILL.md', name: 'refunds', description: 'Refunds, nested under acme/billing.', mimeType: 'text/markdown', size: Buffer.byteLength(REFUNDS_MD) },
      { uri: 'skill://alpha/SKILL.md', name: 'alpha', description: 'The first skill.', mimeType: 'text/markdown', size: Buffer.byteLength(ALPHA_MD) },
    ]);
  });

  it('reads a skill directory: direct children, subfolders as inode/directory', async () => {
    const { resources } = await new SkillsClient(client).readDirectory('skill://alpha');
    expect(resources.map(plain)).toEqual([
      { uri: 'skill://alpha/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(ALPHA_MD) },
      { uri: 'skill://alpha/data.bin', name: 'data.bin', mimeType: 'application/octet-stream', size: BINARY.length },
      { uri: 'skill://alpha/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    for (const resource of resources) assertMatchesDef(plain(resource), 'Resource');
    const nested = await callMcp(started.url, 'resources/directory/read', { uri: 'skill://alpha/references' });
    expect(nested.body.result).toEqual({
      _meta: expect.any(Object),
      resultType: 'complete',
      resources: [{ uri: 'skill://alpha/references/GUIDE.md', name: 'GUIDE.md', mimeType: 'text/markdown', size: Buffer.byteLength(GUIDE_MD) }],
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('answers skills/get with the entry and the caching fields; unknown skills are -32602', async () => {
    const found = await callMcp(started.url, 'skills/get', { uri: 'skill://alpha/SKILL.md' });
    expect(found.body.result).toEqual(expect.objectContaining({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' }));
    expect(found.body.result.skill.uri).toBe('skill://alpha/SKILL.md');
    expect(found.body.result.nextCursor).toBeUndefined();
    for (const uri of ['skill://nope/SKILL.md', 'skill://alpha/references/GUIDE.md', 'skill://alpha']) {
      const missing = await callMcp(started.url, 'skills/get', { uri });
      expectCleanError(missing.body, -32602, folder.root);
    }
    expectCleanError((await callMcp(started.url, 'skills/get', {})).body, -32602, folder.root);
  });

  it('serves a 2025 session too: initialize declares the extension, and skills list, get, read (verified) and walk without the 2026-07-28 caching fields', async () => {
    const wire = new WireRecorder();
    // The official client on its default negotiation speaks 2025-11-25 (initialize, a session).
    const legacy = new Client({ name: 'nest-mcp-skills-e2e-2025', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(started.url), { fetch: wire.fetch }));
    try {
      expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect((legacy.getServerCapabilities() as Json).extensions).toEqual({ [SKILLS]: { directoryRead: true } });
      const skills = new SkillsClient(legacy);
      expect(skills.supported).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md', 'skill://alpha/SKILL.md']);
      expect(listing.ttlMs).toBeUndefined();
      const alpha = await skills.get('skill://alpha/SKILL.md');
      expect(alpha.ttlMs).toBeUndefined();
      expect(await skills.read(alpha.skill)).toEqual(expect.objectContaining({ verified: true, frontmatter: alpha.skill.frontmatter }));
      expect((await skills.readDirectory('skill://alpha')).resources.map((resource) => resource.uri)).toEqual(['skill://alpha/SKILL.md', 'skill://alpha/data.bin', 'skill://alpha/references']);
      await expect(skills.get('skill://nope/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    } finally {
      await legacy.close();
    }
    const methods = wire.messages.map(({ method }) => method);
    expect(methods).toEqual(expect.arrayContaining(['initialize', 'skills/list', 'skills/get', 'resources/read', 'resources/directory/read']));
    for (const { message, method } of wire.messages) assertLegacyServerMessage(message, method);
  });

  it('never serves what lies outside the folder, nor dot files: every hostile URI is -32602, the server keeps serving', async () => {
    const hostile = [
      'skill://alpha/../../secret.txt',
      'skill://alpha/%2e%2e/%2e%2e/secret.txt',
      'skill://alpha/%2E%2E%2F%2E%2E%2Fsecret.txt',
      'skill://alpha/references/..%2fSKILL.md',
      'skill://..',
      'skill:///etc/passwd',
      `skill://${folder.outside}`,
      'skill://alpha/leak.txt',
      'skill://alpha/.hidden',
      'skill://README.md',
      'skill://acme/NOTES.md',
      'skill://acme',
      'skill://alpha/%00',
      'skill://alpha/%E0%A4%A',
      'skill://alpha//SKILL.md',
      'skill://alpha/./SKILL.md',
      'file:///etc/passwd',
    ];
    for (const uri of hostile) {
      const read = await callMcp(started.url, 'resources/read', { uri });
      expectCleanError(read.body, -32602, folder.root);
      const directory = await callMcp(started.url, 'resources/directory/read', { uri });
      expectCleanError(directory.body, -32602, folder.root);
    }
    // A file is not a directory; a directory read needs a string uri; a bad cursor is -32602.
    expectCleanError((await callMcp(started.url, 'resources/directory/read', { uri: 'skill://alpha/SKILL.md' })).body, -32602, folder.root);
    expectCleanError((await callMcp(started.url, 'resources/directory/read', { uri: 42 })).body, -32602, folder.root);
    expectCleanError((await callMcp(started.url, 'skills/list', { cursor: 'forged' })).body, -32602, folder.root);
    const after = await callMcp(started.url, 'skills/list');
    expect(after.body.result.skills).toHaveLength(2);
  });

  it('is answered with schema-valid messages on the raw wire', async () => {
    const discover = await callMcp(started.url, 'server/discover');
    expect(discover.body.result.capabilities.extensions).toEqual({ [SKILLS]: { directoryRead: true } });
    const read = await callMcp(started.url, 'resources/read', { uri: 'skill://alpha/data.bin' });
    expect(read.body.result.contents).toEqual([{ uri: 'skill://alpha/data.bin', mimeType: 'application/octet-stream', blob: BINARY.toString('base64') }]);
    const templates = await callMcp(started.url, 'resources/templates/list');
    expect(templates.body.result.resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'skill://{+path}' })]);
  });
});

describe('skills: files that change after start-up', () => {
  let folder: { root: string; outside: string };
  let started: StartedApp;

  beforeAll(async () => {
    folder = skillsFolder();
    started = await startApp([skillsModule(folder.root, { directoryRead: false })]);
  });

  afterAll(async () => {
    await started?.app.close();
    rmSync(path.dirname(folder.root), { recursive: true, force: true });
  });

  it('declares the extension without directoryRead, and then refuses the directory read (-32601)', async () => {
    const discover = await callMcp(started.url, 'server/discover');
    expect(discover.body.result.capabilities.extensions).toEqual({ [SKILLS]: {} });
    expect((await callMcp(started.url, 'resources/directory/read', { uri: 'skill://alpha' })).body.error.code).toBe(-32601);
  });

  it('answers a file that vanished with -32602 (not a file-system error)', async () => {
    unlinkSync(path.join(folder.root, 'alpha/references/GUIDE.md'));
    const read = await callMcp(started.url, 'resources/read', { uri: 'skill://alpha/references/GUIDE.md' });
    expectCleanError(read.body, -32602, folder.root);
    expect(read.body.error.data).toEqual({ uri: 'skill://alpha/references/GUIDE.md' });
  });

  it('refuses a file whose bytes changed since start-up (-32603): its digest would no longer hold', async () => {
    writeFileSync(path.join(folder.root, 'alpha/SKILL.md'), ALPHA_MD.replace('Alpha', 'Tampered'));
    const read = await callMcp(started.url, 'resources/read', { uri: 'skill://alpha/SKILL.md' });
    expectCleanError(read.body, -32603, folder.root);
  });

  it('does not follow a file swapped for a symbolic link out of the folder', async () => {
    const file = path.join(folder.root, 'alpha/data.bin');
    unlinkSync(file);
    symlinkSync(folder.outside, file);
    expectCleanError((await callMcp(started.url, 'resources/read', { uri: 'skill://alpha/data.bin' })).body, -32602, folder.root);
  });
});

describe('skills: start-up', () => {
  const made: string[] = [];
  const folderWith = (files: Record<string, string>): string => {
    const root = mkdtempSync(path.join(tmpdir(), 'nest-mcp-skills-bad-'));
    made.push(root);
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), content);
    }
    return root;
  };
  afterAll(() => {
    for (const root of made) rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['a name that is not the folder', { 'one/SKILL.md': '---\nname: two\ndescription: d\n---\n' }, 'Skill one/SKILL.md names the skill "two"'],
    ['no frontmatter', { 'one/SKILL.md': '# no frontmatter\n' }, 'Skill one/SKILL.md does not begin with a --- YAML frontmatter block'],
    ['no description', { 'one/SKILL.md': '---\nname: one\n---\n' }, 'needs a frontmatter "description"'],
    ['a name against the naming rules', { 'One_1/SKILL.md': '---\nname: One_1\ndescription: d\n---\n' }, 'lowercase letters'],
    ['broken YAML', { 'one/SKILL.md': '---\nname: [one\ndescription: d\n---\n' }, 'not valid YAML'],
  ])('fails with a clear message on %s', async (_case, files, message) => {
    const error = await startupFailure([skillsModule(folderWith(files))]);
    expect(error.message).toContain(message);
  });

  it('fails when the folder does not exist', async () => {
    const error = await startupFailure([skillsModule('/nonexistent/nest-mcp-skills')]);
    expect(error.message).toContain('skills.directory "/nonexistent/nest-mcp-skills" cannot be read');
  });

  it('declares nothing, and serves no skills/* method, when the folder holds no skill', async () => {
    const started = await startApp([skillsModule(folderWith({ 'notes/README.md': '# not a skill\n' }))]);
    try {
      const discover = await callMcp(started.url, 'server/discover');
      expect(discover.body.result.capabilities.extensions).toBeUndefined();
      expect((await callMcp(started.url, 'skills/list')).body.error.code).toBe(-32601);
      expect((await callMcp(started.url, 'skills/get', { uri: 'skill://notes/SKILL.md' })).body.error.code).toBe(-32601);
    } finally {
      await started.app.close();
    }
  });
});

describe('skills made by provider methods (@McpSkill)', () => {
  @Injectable()
  class StyleService {
    rules(): string {
      return 'Upper-case keywords.';
    }
  }

  @Injectable()
  class SkillProviders {
    constructor(private readonly style: StyleService) {}

    @McpSkill({ name: 'sql-style', description: 'How we write SQL.', frontmatter: { license: 'MIT', metadata: { team: 'data' } } })
    sqlStyle(): string {
      return `# SQL style\n\n${this.style.rules()}\n`;
    }

    @McpSkill({ name: 'refund-policy', description: 'Decides refunds.', path: 'acme/billing' })
    async refunds(): Promise<Record<string, string | Uint8Array>> {
      return { 'SKILL.md': '# Refunds\n\nSee rules/LIMITS.md.\n', 'rules/LIMITS.md': '- at most 100 EUR\n', 'rules/table.bin': BINARY };
    }
  }

  let folder: { root: string; outside: string };
  let started: StartedApp;
  let client: Client;

  beforeAll(async () => {
    folder = skillsFolder();
    @Module({ imports: [McpModule.forRoot({ skills: { directory: folder.root } })], providers: [StyleService, SkillProviders] })
    class MixedModule {}
    started = await startApp([MixedModule]);
    client = await officialClient(started.url);
  });

  afterAll(async () => {
    await client?.close();
    await started?.app.close();
    rmSync(path.dirname(folder.root), { recursive: true, force: true });
  });

  it('publishes them next to the folder\'s skills; the official client verifies every file', async () => {
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    expect(entries.map((entry) => entry.uri)).toEqual([
      'skill://acme/billing/refund-policy/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://alpha/SKILL.md',
      'skill://sql-style/SKILL.md',
    ]);
    const sql = entries.find((entry) => entry.uri === 'skill://sql-style/SKILL.md')!;
    expect(plain(sql.frontmatter)).toEqual({ license: 'MIT', metadata: { team: 'data' }, name: 'sql-style', description: 'How we write SQL.' });
    const manifest = await skills.read(sql);
    expect(manifest.body).toContain('Upper-case keywords.');
    expect(manifest.verified).toBe(true);
    const refunds = entries.find((entry) => entry.uri === 'skill://acme/billing/refund-policy/SKILL.md')!;
    expect((refunds.resources as { uri: string }[]).map((resource) => resource.uri)).toEqual([
      'skill://acme/billing/refund-policy/SKILL.md',
      'skill://acme/billing/refund-policy/rules/LIMITS.md',
      'skill://acme/billing/refund-policy/rules/table.bin',
    ]);
    expect((await skills.read(refunds, 'rules/LIMITS.md')).text).toBe('- at most 100 EUR\n');
    expect(Buffer.from((await skills.read(refunds, 'rules/table.bin')).bytes)).toEqual(BINARY);
    const listing = await skills.readDirectory('skill://acme/billing/refund-policy/rules');
    expect(listing.resources.map((resource) => resource.name)).toEqual(['LIMITS.md', 'table.bin']);
  });

  it('fails start-up on a bad name, an unsafe file path, or a file the folder already has', async () => {
    const moduleWith = (options: McpSkillOptions, content: McpSkillContent, directory?: string) => {
      @Injectable()
      class One {
        @McpSkill(options)
        make(): McpSkillContent {
          return content;
        }
      }
      @Module({ imports: [McpModule.forRoot({ skills: { directory } })], providers: [One] })
      class OneModule {}
      return OneModule;
    };
    expect((await startupFailure([moduleWith({ name: 'Bad_Name', description: 'd' }, 'x')])).message).toContain('@McpSkill() on One.make(): the name "Bad_Name"');
    expect((await startupFailure([moduleWith({ name: 'ok', description: 'd' }, { '../escape.md': 'x' })])).message).toContain('the file "../escape.md" has an empty, hidden or ".." segment');
    expect((await startupFailure([moduleWith({ name: 'ok', description: 'd', path: 'a/../b' }, 'x')])).message).toContain('the path "a/../b"');
    expect((await startupFailure([moduleWith({ name: 'alpha', description: 'd' }, 'x', folder.root)])).message).toContain(
      'skill://alpha/SKILL.md is served twice',
    );
  });
});
