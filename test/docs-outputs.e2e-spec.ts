import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { McpModule } from 'nest-mcp';
import { REPOSITORY_ROOT, typescriptBlocks } from './support/doc-blocks.js';
import { postMcp, standardHeaders, startApp, type Json, type StartedApp } from './support/mcp-http.js';

// The exchanges the guide shows beside its code are what that code produces: each test compiles the page's
// block, serves it on a real app, sends the request the page shows and matches the answer the page shows.
// `…` in a shown answer stands for any text (an opaque requestState, the `_meta` the page leaves out).

const RUN_DIR = path.join(REPOSITORY_ROOT, '.docs-outputs');

afterAll(() => rmSync(RUN_DIR, { recursive: true, force: true }));

/** The page's block that names itself `// fileName`, compiled to JS and imported (its `nest-mcp` is lib/). */
async function importBlock(page: string, fileName: string): Promise<Record<string, unknown>> {
  const block = typescriptBlocks(page).find((candidate) => candidate.fileName === fileName);
  if (!block) throw new Error(`${page} has no block named ${fileName}`);
  const { outputText } = ts.transpileModule(block.source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, experimentalDecorators: true, emitDecoratorMetadata: true },
  });
  const file = path.join(RUN_DIR, page.replace(/\W/g, '-'), fileName.replace(/\.ts$/, '.mjs'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, outputText);
  return import(pathToFileURL(file).href);
}

/** The page's fenced blocks of `language`, in order. */
function shownBlocks(page: string, language: string): string[] {
  const text = readFileSync(path.join(REPOSITORY_ROOT, page), 'utf8');
  return [...text.matchAll(new RegExp('```' + language + '\\r?\\n([\\s\\S]*?)\\r?\\n```', 'g'))].map((match) => match[1]);
}

/** A shown JSON block as one line (its line breaks and indentation are layout), `…` still in it. */
function oneLine(shown: string): string {
  return shown.replace(/\r?\n\s*/g, '');
}

/** Whether `actual` is `shown` with each `…` standing for any text. */
function matchesShown(actual: string, shown: string): boolean {
  const pattern = oneLine(shown).split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(actual);
}

/** A shown request with its `…` filled in: `"requestState":"X…"` by the real state, `"_meta":{…}` by `meta`. */
function filledRequest(shown: string, fill: { requestState?: string; meta: Record<string, unknown> }): Json {
  let text = oneLine(shown).replace('"_meta":{…}', `"_meta":${JSON.stringify(fill.meta)}`);
  if (fill.requestState !== undefined) text = text.replace(/"requestState":"[^"]*…"/, `"requestState":${JSON.stringify(fill.requestState)}`);
  return JSON.parse(text);
}

/** Serves `providers` with the module as the pages configure it (`my-server` 1.0.0), for the length of `body`. */
async function served(providers: unknown[], body: (started: StartedApp) => Promise<void>): Promise<void> {
  const started = await startApp([McpModule.forRoot({ name: 'my-server', version: '1.0.0' })], '/mcp', providers);
  try {
    await body(started);
  } finally {
    await started.app.close();
  }
}

/** The request of a shown `curl … -H 'Name: value' … -d '{…}'` command. */
function curlRequest(shown: string): { headers: Record<string, string>; body: string } {
  const headers = Object.fromEntries([...shown.matchAll(/-H '([^:']+): ([^']*)'/g)].map((match) => [match[1], match[2]]));
  const body = /-d '([\s\S]*?)'\s*$/.exec(shown)?.[1];
  if (!body) throw new Error(`no -d body in ${shown}`);
  return { headers, body };
}

/** Reads an SSE response's events one at a time, as they arrive. */
function eventReader(response: Response): () => Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!event.startsWith(':')) return event; // keep-alive comments are not events
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended; unread: ${buffered}`);
      buffered += value;
    }
  };
}

describe('the exchanges the guide shows are what its code produces', () => {
  it.each(['README.md', 'docs/reference/wire.md'])('%s: the curl call of the README\'s hello tool', async (page) => {
    const { GreetingTools } = await importBlock('README.md', 'greeting.tools.ts');
    await served([GreetingTools], async (started) => {
      const shownCurl = shownBlocks(page, 'bash').find((block) => block.startsWith('curl'))!;
      const shownAnswer = shownBlocks(page, 'json').find((block) => block.includes('"result"'))!;
      const { headers, body } = curlRequest(shownCurl);
      const response = await fetch(started.url, { method: 'POST', headers, body });
      const text = await response.text();
      expect({ status: response.status, text, matches: matchesShown(text, shownAnswer) }).toEqual({ status: 200, text, matches: true });
    });
  });

  it('docs/guide/change-notifications.md: a listen stream told of a tool BetaFeatures adds', async () => {
    const page = 'docs/guide/change-notifications.md';
    const { BetaFeatures } = await importBlock(page, 'beta-features.ts');
    const abort = new AbortController(); // closes the listen stream, in the end or on a failure
    await served([BetaFeatures], async (started) => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const listen = filledRequest(shownBlocks(page, 'json').find((block) => block.includes('subscriptions/listen'))!, { meta });
      const response = await fetch(started.url, { method: 'POST', headers: standardHeaders(listen), body: JSON.stringify(listen), signal: abort.signal });
      const nextEvent = eventReader(response);
      const shownEvents = shownBlocks(page, 'text').find((block) => block.includes('subscriptions/acknowledged'))!.split(/\r?\n\r?\n/);
      expect(await nextEvent()).toBe(shownEvents[0]);
      (started.app.get(BetaFeatures as never) as { enableBeta(): void }).enableBeta();
      expect(await nextEvent()).toBe(shownEvents[1]);
      expect(shownEvents).toHaveLength(2);
    }).finally(() => abort.abort());
  });

  it('docs/guide/progress.md: the event stream of the process tool', async () => {
    const page = 'docs/guide/progress.md';
    const { ProcessTools } = await importBlock(page, 'process.tools.ts');
    await served([ProcessTools], async (started) => {
      const request = JSON.parse(oneLine(shownBlocks(page, 'json').find((block) => block.includes('"progressToken"'))!));
      const response = await postMcp(started.url, request);
      expect(response.contentType).toMatch(/^text\/event-stream/);
      const shownEvents = shownBlocks(page, 'text').find((block) => block.startsWith('event: message'))!.split(/\r?\n\r?\n/);
      const events = response.text.trim().split(/\n\n/);
      expect(events).toHaveLength(shownEvents.length);
      shownEvents.forEach((shown, index) => {
        const [shownEvent, shownData] = shown.split('\n');
        const [event, data] = events[index].split('\n');
        expect(event).toBe(shownEvent);
        expect({ data, matches: matchesShown(data, shownData) }).toEqual({ data, matches: true });
      });
    });
  });

  it('docs/guide/elicitation.md: the question, the retry with the answer, and the result', async () => {
    const page = 'docs/guide/elicitation.md';
    const { OnboardTools } = await importBlock(page, 'onboard.tools.ts');
    await served([OnboardTools], async (started) => {
      const [shownQuestion, shownRetry, shownResult] = shownBlocks(page, 'json').filter((block) => block.includes('onboard') || block.includes('"id":3') || block.includes('"id":4'));
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      };
      const first = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'onboard', arguments: {}, _meta: meta } };
      const question = await postMcp(started.url, first);
      expect({ answer: question.text, matches: matchesShown(question.text, shownQuestion) }).toEqual({ answer: question.text, matches: true });

      const retry = filledRequest(shownRetry, { requestState: question.body.result.requestState, meta });
      const result = await postMcp(started.url, retry, { headers: standardHeaders(retry) });
      expect({ answer: result.text, matches: matchesShown(result.text, shownResult) }).toEqual({ answer: result.text, matches: true });
    });
  });
});
