import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { lookup } from 'mime-types';
import { InternalError, ResourceNotFoundError } from '../protocol/mcp.error.js';
import { DIRECTORY_MIME_TYPE } from '../protocol/protocol.constants.js';
import type { JsonObject, ResourceContents, ResourceDescriptor } from '../protocol/wire.types.js';
import { readFrontmatter, SKILL_MANIFEST as MANIFEST } from './skill-frontmatter.js';

/** SEP-2640 limits: a skill over either is not served. */
const SKILL_LIMITS = { maxFiles: 512, maxTotalBytes: 16 * 1024 * 1024 };

const SCHEME = 'skill://';
const MARKDOWN = 'text/markdown';

/** One file of a skill, as `skills/list` names it. */
export interface SkillResourceEntry {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the bytes `resources/read` returns. */
  digest: string;
  size: number;
}

/** A skill as `skills/list` and `skills/get` return it. */
export interface SkillEntry {
  /** The URI of its SKILL.md. */
  uri: string;
  frontmatter: JsonObject & { name: string; description: string };
  resources: SkillResourceEntry[];
}

/** What the catalog knows of one file: where it lives and what it held at start-up. */
interface CatalogFile extends SkillResourceEntry {
  /** Real path, inside the skills folder; absent for a generated file. */
  file?: string;
  /** A generated file's bytes (`@McpSkill()`), held from start-up. */
  bytes?: Buffer;
  name: string;
  mimeType: string;
  /** Served as text when the bytes are UTF-8 (text round-trips to the same bytes, so the digest holds). */
  text: boolean;
  /** A SKILL.md's text, read once for its frontmatter. */
  manifestText?: string;
}

/** A folder found while walking: its files and subfolders, by name. */
interface Folder {
  relative: string[];
  files: Map<string, CatalogFile>;
  folders: Map<string, Folder>;
}

/** Where the catalog reports what it skipped (a symlink leading out of the folder, …). */
interface SkillCatalogLogger {
  warn(message: string): void;
}

/**
 * The published skills, read once at start-up from the skills folder and `@McpSkill()` methods: every
 * skill directory (a folder with a SKILL.md; nested folders make skill paths like
 * `acme/billing/refunds`), each file's digest and size, and the directory listings. Requests only ever look URIs up in these maps, so no URI a
 * client sends is turned into a path: `..`, `%2e%2e`, absolute paths and the like simply match nothing.
 */
export class SkillCatalog {
  private readonly skillsByUri = new Map<string, SkillEntry>();
  /** The same skills, in path order (nested skills are found before the skill around them). */
  private sorted: readonly SkillEntry[] = [];
  private readonly files = new Map<string, CatalogFile>();
  private readonly directories = new Map<string, ResourceDescriptor[]>();

  private constructor(
    private readonly root: string,
    private readonly logger: SkillCatalogLogger,
  ) {}

  /**
   * Walks `directory` (if any) and adds the `generated` skills; a malformed skill, or two sources of
   * one file, stops start-up with a message naming it.
   */
  static async load(directory: string | undefined, generated: readonly GeneratedSkill[], logger: SkillCatalogLogger): Promise<SkillCatalog> {
    let root = '';
    if (directory !== undefined) {
      try {
        root = await realpath(path.resolve(directory));
        if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
      } catch (error) {
        throw new Error(`McpModule skills.directory "${directory}" cannot be read: ${(error as Error).message}`);
      }
    }
    const catalog = new SkillCatalog(root, logger);
    const tree = directory !== undefined ? await catalog.walk(root, []) : emptyFolder([]);
    for (const skill of generated) addGenerated(tree, skill);
    catalog.collect(tree);
    catalog.sorted = [...catalog.skillsByUri.values()].sort((a, b) => byCodePoint(a.uri, b.uri));
    return catalog;
  }

  /** Every skill, in path order. */
  get skills(): readonly SkillEntry[] {
    return this.sorted;
  }

  /** The skill whose SKILL.md is at `uri`. */
  skill(uri: string): SkillEntry | undefined {
    return this.skillsByUri.get(uri);
  }

  /** The direct children of the skill directory at `uri` (files, then `inode/directory` entries). */
  directory(uri: string): ResourceDescriptor[] | undefined {
    return this.directories.get(uri);
  }

  /** The `resources/list` entries: each SKILL.md, named and described by its frontmatter. */
  manifests(): ResourceDescriptor[] {
    return this.skills.map((skill) => ({
      uri: skill.uri,
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      mimeType: MARKDOWN,
      size: this.files.get(skill.uri)!.size,
    }));
  }

  /**
   * The contents of the file at `uri`, exactly the bytes its digest covers. A file that is gone, or
   * now resolves outside the folder, is not found (-32602, as any unknown resource); one whose bytes
   * changed since start-up is refused (-32603): serving it would fail every client's digest check.
   */
  async read(uri: string): Promise<ResourceContents> {
    const entry = this.files.get(uri);
    const notFound = () => new ResourceNotFoundError(uri);
    if (!entry) throw notFound();
    if (entry.bytes) return contentsOf(entry, entry.bytes);
    let bytes: Buffer;
    try {
      // Re-resolved on every read: a file swapped for a symlink out of the folder is not followed.
      const file = await realpath(entry.file!);
      if (!isInside(this.root, file)) throw notFound();
      bytes = await readFile(file);
    } catch {
      this.logger.warn(`Skills: ${uri} is gone since start-up (or now leads out of the skills folder); restart to republish`);
      throw notFound();
    }
    if (sha256(bytes) !== entry.digest) {
      this.logger.warn(`Skills: ${uri} changed since start-up; restart to republish it with its new digest`);
      throw new InternalError('The skill file changed since the server started');
    }
    return contentsOf(entry, bytes);
  }

  private async walk(folder: string, relative: string[]): Promise<Folder> {
    const node = emptyFolder(relative);
    // Code-point order: the same listing on every machine, whatever its locale.
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => byCodePoint(a.name, b.name));
    for (const entry of entries) {
      // Dot files (.git, .DS_Store) are tooling, not skill content.
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      const shown = [...relative, entry.name].join('/');
      if (entry.isDirectory()) {
        node.folders.set(entry.name, await this.walk(full, [...relative, entry.name]));
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const file = entry.isSymbolicLink() ? await this.resolveLink(full) : full;
        if (file) node.files.set(entry.name, { ...describeFile(await readFile(file), entry.name, uriOf([...relative, entry.name])), file });
        else this.logger.warn(`Skills: "${shown}" is not served (a symbolic link to a folder or to outside the skills folder)`);
      }
    }
    return node;
  }

  /** The regular file inside the folder a symbolic link leads to (links to folders are not followed: no cycles). */
  private async resolveLink(full: string): Promise<string | undefined> {
    try {
      const target = await realpath(full);
      return isInside(this.root, target) && (await stat(target)).isFile() ? target : undefined;
    } catch {
      return undefined;
    }
  }

  /** Registers every file and every skill under `node`; `enclosing` holds the file lists of the skills around it. */
  private collect(node: Folder, enclosing: CatalogFile[][] = []): void {
    const manifest = node.relative.length > 0 ? node.files.get(MANIFEST) : undefined;
    const own: CatalogFile[] = [];
    const scopes = manifest ? [...enclosing, own] : enclosing;
    // Only files within a skill are served: a README beside the skills is not skill content.
    for (const file of scopes.length > 0 ? node.files.values() : []) {
      this.files.set(file.uri, file);
      for (const scope of scopes) scope.push(file);
    }
    // Every folder within a skill is a directory resource (the skill root included); folders above skills are not.
    if (scopes.length > 0) this.directories.set(uriOf(node.relative), listing(node));
    for (const child of node.folders.values()) this.collect(child, scopes);
    if (manifest) this.addSkill(node, manifest, own);
  }

  private addSkill(node: Folder, manifest: CatalogFile, files: CatalogFile[]): void {
    const where = [...node.relative, MANIFEST].join('/');
    if (manifest.manifestText === undefined) throw new Error(`Skill ${where} is not UTF-8 text`);
    let frontmatter: SkillEntry['frontmatter'];
    try {
      frontmatter = readFrontmatter(manifest.manifestText, node.relative.at(-1)!);
    } catch (error) {
      throw new Error(`Skill ${where} ${(error as Error).message}`);
    }
    const total = files.reduce((sum, file) => sum + file.size, 0);
    if (files.length > SKILL_LIMITS.maxFiles || total > SKILL_LIMITS.maxTotalBytes) {
      throw new Error(
        `Skill ${where} has ${files.length} files and ${total} bytes; a skill may have at most ${SKILL_LIMITS.maxFiles} files and ${SKILL_LIMITS.maxTotalBytes} bytes`,
      );
    }
    const resources = [manifest, ...files.filter((file) => file !== manifest)].map(({ uri, digest, size }) => ({ uri, digest, size }));
    this.skillsByUri.set(manifest.uri, { uri: manifest.uri, frontmatter, resources });
  }

}

function emptyFolder(relative: string[]): Folder {
  return { relative, files: new Map(), folders: new Map() };
}

/** Code-point order, whatever the locale. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `skill://` and the percent-encoded path segments. */
function uriOf(segments: readonly string[]): string {
  return SCHEME + segments.map(encodeURIComponent).join('/');
}

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function contentsOf(entry: CatalogFile, bytes: Buffer): ResourceContents {
  return entry.text
    ? { uri: entry.uri, mimeType: entry.mimeType, text: bytes.toString('utf8') }
    : { uri: entry.uri, mimeType: entry.mimeType, blob: bytes.toString('base64') };
}

function describeFile(bytes: Buffer, name: string, uri: string): CatalogFile {
  let text: string | undefined;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = undefined;
  }
  const mimeType = name === MANIFEST ? MARKDOWN : lookup(name) || (text === undefined ? 'application/octet-stream' : 'text/plain');
  return {
    uri,
    name,
    digest: sha256(bytes),
    size: bytes.byteLength,
    mimeType,
    text: text !== undefined,
    ...(name === MANIFEST && text !== undefined ? { manifestText: text } : {}),
  };
}

/** A directory's direct children: files with their metadata, then subfolders as `inode/directory`. */
function listing(node: Folder): ResourceDescriptor[] {
  const files = [...node.files.values()].map(({ uri, name, mimeType, size }) => ({ uri, name, mimeType, size }));
  const folders = [...node.folders.entries()].map(([name, folder]) => ({ uri: uriOf(folder.relative), name, mimeType: DIRECTORY_MIME_TYPE }));
  return [...files, ...folders];
}

/**
 * A skill made by code (`@McpSkill()`): its path (the last segment is its name), the SKILL.md text
 * and its other files by relative path, all produced once at start-up.
 */
export interface GeneratedSkill {
  segments: string[];
  files: ReadonlyMap<string, Buffer>;
  /** `Class.method()`, for start-up messages. */
  source: string;
}

/** Places a generated skill's files in the tree; a file the folder (or another skill) already has is an error. */
function addGenerated(tree: Folder, skill: GeneratedSkill): void {
  for (const [relativePath, bytes] of skill.files) {
    const segments = [...skill.segments, ...relativePath.split('/')];
    const name = segments.pop()!;
    let folder = tree;
    for (const segment of segments) {
      let next = folder.folders.get(segment);
      if (!next) folder.folders.set(segment, (next = emptyFolder([...folder.relative, segment])));
      folder = next;
    }
    const uri = uriOf([...segments, name]);
    if (folder.files.has(name)) throw new Error(`${skill.source}: ${uri} is served twice (by the skills folder or another @McpSkill())`);
    folder.files.set(name, { ...describeFile(bytes, name, uri), bytes });
  }
}
