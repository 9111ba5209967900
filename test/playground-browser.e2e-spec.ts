/// <reference lib="dom" />
// The callbacks of page.$eval / waitForFunction run in the page: they are typed with the DOM library.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Frame, Page } from 'puppeteer-core';
import { audio, image, McpArg, McpModule, McpResource, McpTool, McpToolError, McpUi, resourceLink, type McpAuthInfo, type McpToolResult } from 'nest-mcp';
import { HttpAppModule } from '../sample/http-app.module.js';
import { ForecastTools } from '../sample/apps/forecast.tools.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { describeWithChromium, launchChromium, type HeadlessBrowser } from './support/browser.js';
import { askUpgradePlan, buildReport, finished, open, openPlayground, progressBar, question, switchEra, upgradePlan, type OpenPlayground } from './support/playground-page.js';
import { writeScreenshotIfChanged } from './support/screenshot.js';
import { callMcp, startApp, type StartedApp } from './support/mcp-http.js';
import { PATIENCE_MS } from './support/waiting.js';

// The page as a person uses it: a real headless Chromium on the sample's playground. Every wait is
// for something the page shows (no timed assertions). The screenshot of the docs is taken here too.
const SCREENSHOT = 'docs/playground.png';

/** Calls a tool with one argument typed in; once the run is done, its app's frame in the result. */
async function callToolWithApp(page: Page, tool: string, argument: string, value: string): Promise<{ frame: Frame; sandbox: string | null }> {
  await open(page, 'tools', tool);
  await page.type(`#detail input[name="${argument}"]`, value);
  await page.click('#detail form button[type="submit"]');
  expect((await finished(page)).state).toBe('done');
  const handle = (await page.waitForSelector('#detail .result iframe.app'))!;
  return { frame: (await handle.contentFrame())!, sandbox: await handle.evaluate((frame) => frame.getAttribute('sandbox')) };
}

describeWithChromium('the playground in a real browser (sample app)', () => {
  let playground: OpenPlayground;
  let started: StartedApp;
  let chromium: HeadlessBrowser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    playground = await openPlayground([HttpAppModule], (opened) => {
      // CSP violations and script errors would show here.
      opened.on('pageerror', (error) => pageErrors.push(String(error)));
      opened.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
    });
    ({ started, chromium, page } = playground);
  }, 60_000);

  afterAll(async () => {
    await playground?.close();
  });

  it('discovers the server and lists its tools, prompts, resources and templates', async () => {
    expect(await page.$eval('#server-name', (node) => node.textContent)).toBe('nest-mcp sample server');
    const names = (tab: string) => page.$$eval(`#list-${tab} button`, (buttons) => buttons.map((button) => button.getAttribute('data-name')));
    expect(await names('tools')).toEqual(expect.arrayContaining(['hello', 'process', 'onboard', 'upgrade-plan']));
    expect(await names('prompts')).toEqual(['code-review', 'plan-review']);
    expect(await names('resources')).toEqual(['readme', 'logo', 'forecast-view', 'release-notes']);
    expect(await names('templates')).toEqual(['user-profile', 'skill-files']);
  });

  it('calls hello from the form generated from its input schema, and shows text and structured content', async () => {
    await open(page, 'tools', 'hello');
    await page.type('#detail input[name="name"]', 'Ada');
    await page.click('#detail form button[type="submit"]');
    const run = await finished(page);
    expect(run.state).toBe('done');
    expect(await page.$eval('#detail .result .text', (node) => node.textContent)).toBe('{"message":"Hello, Ada!"}');
    expect(await page.$eval('#detail .result .structured', (node) => (node as HTMLElement).innerText)).toContain('message: "Hello, Ada!"');
  });

  it('runs process and its progress bar reaches 3/3 with the last message', async () => {
    await open(page, 'tools', 'process');
    await page.type('#detail input[name="data"]', 'abc');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    expect(await progressBar(page)).toEqual({ value: 3, max: 3, count: '3/3', message: 'stored' });
    expect(await page.$eval('#detail .result .structured', (node) => (node as HTMLElement).innerText)).toContain('Done: processed 3 characters');
  });

  it('completes upgrade-plan by filling two forms, round after round', async () => {
    const billing = started.app.get(BillingService);
    const chargesBefore = billing.charges.length;
    const run = await upgradePlan(page, 'user-7', 'team');
    expect(run.state).toBe('done');
    expect(run.text).toContain('done after 3 rounds');
    expect(await page.$eval('#detail .result .structured', (node) => (node as HTMLElement).innerText)).toMatch(/upgraded: true[\s\S]*plan: "team"/);
    expect(billing.charges.slice(chargesBefore)).toEqual([{ userId: 'user-7', plan: 'team' }]);
  });

  it('declines onboard: the tool completes with its own answer', async () => {
    await open(page, 'tools', 'onboard');
    await page.click('#detail form button[type="submit"]');
    await question(page, 'Please enter your details');
    // The form asks what the schema asks: a name and an email (format email).
    expect(await page.$eval('#detail .elicitation input[name="email"]', (input) => (input as HTMLInputElement).type)).toBe('email');
    await page.click('#detail .elicitation button[data-action="decline"]');
    const run = await finished(page);
    expect(run.state).toBe('done');
    expect(run.text).toContain('answered “Please enter your details”: decline');
    expect(await page.$eval('#detail .result .text', (node) => node.textContent)).toBe('{"message":"Onboarding cancelled."}');
  });

  it('runs wizard: titled options in the select, progress between the rounds', async () => {
    await open(page, 'tools', 'wizard');
    await page.click('#detail form button[type="submit"]');
    await question(page, 'Step 1: project name?');
    await page.type('#detail .elicitation input[name="project"]', 'demo');
    await page.click('#detail .elicitation button[data-action="accept"]');
    await question(page, 'Step 2: language?');
    const options = await page.$$eval('#detail .elicitation select[name="language"] option', (nodes) => nodes.map((node) => [(node as HTMLOptionElement).value, node.textContent]));
    expect(options).toEqual([['', '— choose —'], ['ts', 'TypeScript'], ['java', 'Java']]);
    await page.select('#detail .elicitation select[name="language"]', 'java');
    await page.click('#detail .elicitation button[data-action="accept"]');
    expect((await finished(page)).state).toBe('done');
    expect(await page.$eval('#detail .progress-count', (node) => node.textContent)).toBe('3/3');
    expect(await page.$eval('#detail .result .structured', (node) => (node as HTMLElement).innerText)).toMatch(/project: "demo"[\s\S]*language: "java"/);
  });

  it('runs quarterly-report as a task: created, an input round answered with tasks/update, progress from tasks/get, cancelled with tasks/cancel', async () => {
    await open(page, 'tools', 'quarterly-report');
    await page.type('#detail input[name="pages"]', '20');
    await page.click('#detail form button[type="submit"]');
    // The question comes from the task (input_required on tasks/get), not from the call.
    await question(page, 'Build a 20-page report? It takes about 20 seconds.');
    expect(await page.$eval('#detail .run', (run) => (run as HTMLElement).dataset.taskStatus)).toBe('input_required');
    await page.click('#detail .elicitation input[name="confirmed"]');
    await page.click('#detail .elicitation button[data-action="accept"]');
    await page.waitForFunction(() => document.querySelector('#detail .progress-count')?.textContent === '1/20', { timeout: PATIENCE_MS });
    expect(await page.$eval('#detail .progress-message', (node) => node.textContent)).toBe('page 1 of 20');
    await page.click('#detail .run button.cancel');
    const run = await finished(page);
    expect(run).toEqual({ state: 'cancelled', text: expect.stringContaining('task cancelled') });
    expect(await page.$('#detail .result')).toBeNull();
    const taskId = await page.$eval('#detail .run', (node) => (node as HTMLElement).dataset.task!);
    const summaries = await page.$$eval('#log-entries summary', (nodes) => nodes.map((node) => node.textContent ?? ''));
    const of = (method: string) => summaries.filter((line) => line.includes(`${method} ${taskId} · HTTP 200`));
    expect(summaries.some((line) => / tools\/call quarterly-report · HTTP 200 · task ·/.test(line))).toBe(true);
    expect(of('tasks/get').length).toBeGreaterThanOrEqual(3);
    expect(of('tasks/update')).toHaveLength(1);
    expect(of('tasks/cancel')).toHaveLength(1);
  });

  it('sends raw JSON arguments unchecked and shows the JSON-RPC error the server answers', async () => {
    await open(page, 'tools', 'hello');
    await page.type('#detail input[name="name"]', 'Ada');
    await page.click('#detail .modes button[data-mode="json"]');
    // Seeded from the form.
    expect(JSON.parse(await page.$eval('#detail textarea.raw-args', (area) => (area as HTMLTextAreaElement).value))).toEqual({ name: 'Ada' });
    /** Sends `raw` as the arguments; returns what the page shows and what a client gets for the same call without the page. */
    const send = async (raw: string) => {
      await page.$eval('#detail textarea.raw-args', (area, text) => ((area as HTMLTextAreaElement).value = text), raw);
      await page.click('#detail form.raw button[type="submit"]');
      const run = await finished(page);
      const shown = await page.$eval('#detail .result', (node) => ({ code: (node as HTMLElement).dataset.code, text: (node as HTMLElement).innerText }));
      const asked = await callMcp(started.url, 'tools/call', { name: 'hello', arguments: JSON.parse(raw) }, { skipSchema: true });
      return { run, shown, asked };
    };
    // A wrong type: the server's validation answers with a tool error (isError), as a client sees it.
    const wrongType = await send('{ "name": 42 }');
    expect(wrongType.run.state).toBe('tool-error');
    expect(wrongType.asked.body.result.isError).toBe(true);
    expect(wrongType.shown.text).toBe(`Tool error\n${wrongType.asked.body.result.content[0].text}`);
    // Arguments that are not an object: a JSON-RPC error, -32602, shown with its HTTP status.
    const notAnObject = await send('"Ada"');
    expect(notAnObject.run.state).toBe('error');
    expect(notAnObject.asked.body.error.code).toBe(-32602);
    expect(notAnObject.shown.code).toBe('-32602');
    expect(notAnObject.shown.text).toContain(`JSON-RPC error -32602 (HTTP ${notAnObject.asked.status})`);
    expect(notAnObject.shown.text).toContain(notAnObject.asked.body.error.message);
    await page.click('#detail .modes button[data-mode="form"]');
    expect(await page.$eval('#detail form.raw', (form) => (form as HTMLElement).hidden)).toBe(true);
  });

  it('completes the same elicitation tool over a 2025-11-25 session: initialize, Mcp-Session-Id, answers POSTed to the stream\'s requests', async () => {
    await switchEra(page, 'legacy');
    const billing = started.app.get(BillingService);
    const chargesBefore = billing.charges.length;
    const run = await upgradePlan(page, 'user-8', 'pro');
    expect(run.state).toBe('done');
    expect(await page.$eval('#detail .result .structured', (node) => (node as HTMLElement).innerText)).toMatch(/upgraded: true[\s\S]*plan: "pro"/);
    expect(billing.charges.slice(chargesBefore)).toEqual([{ userId: 'user-8', plan: 'pro' }]);
    const entries = await page.$$eval('#log-entries .log-entry[data-era="legacy"]', (nodes) =>
      nodes.map((node) => ({ summary: node.querySelector('summary')!.textContent!, text: node.textContent! })),
    );
    const initialize = entries.find(({ summary }) => / initialize · HTTP 200/.test(summary))!;
    expect(initialize.text).toMatch(/Mcp-Session-Id: [\w-]+/);
    // One tools/call whose stream carried both questions; each answer a POSTed response, accepted.
    const call = entries.filter(({ summary }) => / tools\/call upgrade-plan · HTTP 200 · ok/.test(summary));
    expect(call).toHaveLength(1);
    expect(call[0].text).not.toContain('io.modelcontextprotocol/protocolVersion');
    expect(call[0].text.match(/"method": "elicitation\/create"/g)).toHaveLength(2);
    expect(entries.filter(({ summary }) => / response to elicitation\/create · HTTP 202 · accepted/.test(summary))).toHaveLength(2);
    await switchEra(page, 'modern');
  });

  it('cancels a 2025 call mid-stream with notifications/cancelled (closing a 2025 stream alone cancels nothing)', async () => {
    await switchEra(page, 'legacy');
    await open(page, 'tools', 'quarterly-report');
    await page.type('#detail input[name="pages"]', '20');
    await page.click('#detail form button[type="submit"]');
    // No task in a 2025 session: the question comes on the call's stream, the progress too.
    await question(page, 'Build a 20-page report? It takes about 20 seconds.');
    await page.click('#detail .elicitation input[name="confirmed"]');
    await page.click('#detail .elicitation button[data-action="accept"]');
    await page.waitForFunction(() => document.querySelector('#detail .progress-count')?.textContent === '1/20', { timeout: PATIENCE_MS });
    expect(await page.$eval('#detail .run', (run) => (run as HTMLElement).dataset.task ?? 'no task')).toBe('no task');
    await page.click('#detail .run button.cancel');
    expect((await finished(page)).state).toBe('cancelled');
    await page.waitForFunction(() => [...document.querySelectorAll('#log-entries summary')].some((node) => /^notifications\/cancelled · HTTP 202 · accepted/.test(node.textContent ?? '')));
    const entries = await page.$$eval('#log-entries .log-entry', (nodes) => nodes.map((node) => ({ summary: node.querySelector('summary')!.textContent!, sent: node.querySelector('pre')!.textContent! })));
    const call = entries.find(({ summary }) => / tools\/call quarterly-report · HTTP 200 · cancelled/.test(summary))!;
    const cancelled = JSON.parse(entries.find(({ summary }) => summary.startsWith('notifications/cancelled'))!.sent);
    expect(cancelled.params.requestId).toBe(JSON.parse(call.sent).id);
    await switchEra(page, 'modern');
  });

  it("fills a finished task's bar to its total, as a 2025 call's stream does", async () => {
    // 2026-07-28: a task, its steps read from tasks/get; the last one is reported as the task completes.
    const task = await buildReport(page, 3);
    expect(task).toEqual({ state: 'done', text: expect.stringContaining('task completed') });
    expect(await page.$eval('#detail .result .text', (node) => node.textContent)).toBe('The 3-page quarterly report is ready.');
    expect(await progressBar(page)).toEqual({ value: 3, max: 3, count: '3/3', message: 'page 3 of 3' });
    // 2025-11-25: no task, every step a notifications/progress on the call's stream.
    await switchEra(page, 'legacy');
    expect((await buildReport(page, 3)).state).toBe('done');
    expect(await progressBar(page)).toEqual({ value: 3, max: 3, count: '3/3', message: 'page 3 of 3' });
    await switchEra(page, 'modern');
  });

  it('clears the detail panel on another tab, searches the list, shows the full description of the chosen tool, fits the token placeholder', async () => {
    await open(page, 'tools', 'quarterly-report');
    await page.click('[role="tab"][data-tab="prompts"]');
    expect(await page.$eval('#detail', (node) => [(node as HTMLElement).dataset.showing ?? 'nothing', (node as HTMLElement).innerText])).toEqual([
      'nothing',
      'Pick a tool, prompt, resource or template on the left.',
    ]);
    await page.click('[role="tab"][data-tab="tools"]');
    await page.type('#search', 'QUARTERLY');
    const visible = () => page.$$eval('#list-tools li', (items) => items.filter((item) => !(item as HTMLElement).hidden).map((item) => item.querySelector('button')!.dataset.name));
    expect(await visible()).toEqual(['quarterly-report']);
    await page.$eval('#search', (input) => {
      (input as HTMLInputElement).value = '';
      input.dispatchEvent(new Event('input'));
    });
    expect((await visible()).length).toBeGreaterThan(5);
    await page.click('#list-tools button[data-name="quarterly-report"]');
    const description = await page.$eval('#list-tools button.selected .desc', (node) => ({ full: node.scrollWidth <= node.clientWidth, title: node.getAttribute('title') }));
    expect(description).toEqual({ full: true, title: 'Builds the quarterly report, page by page (slow: runs as a task)' });
    const placeholder = await page.$eval('#token', (input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const room = (input as HTMLInputElement).clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: (input as HTMLInputElement).placeholder, fits: context.measureText((input as HTMLInputElement).placeholder).width <= room };
    });
    expect(placeholder).toEqual({ text: 'only if the server asks for one', fits: true });
  });

  it('reads resources by MIME type: markdown as text, a PNG as an image, a template as a JSON tree', async () => {
    await open(page, 'resources', 'readme');
    expect((await finished(page)).state).toBe('done');
    expect(await page.$eval('#detail .result pre.text', (node) => node.textContent)).toContain('# nest-mcp sample');

    await open(page, 'resources', 'logo');
    expect((await finished(page)).state).toBe('done');
    const image = await page.$eval('#detail .result img', (img) => ({ src: (img as HTMLImageElement).src, width: (img as HTMLImageElement).naturalWidth }));
    expect(image.src.startsWith('data:image/png;base64,')).toBe(true);
    expect(image.width).toBe(1);

    await open(page, 'templates', 'user-profile');
    await page.type('#detail input[name="id"]', '1');
    expect(await page.$eval('#detail code.expanded', (node) => node.textContent)).toBe('users://1/profile');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    expect(await page.$eval('#detail .result .tree', (node) => (node as HTMLElement).innerText)).toContain('name: "Ada"');
  });

  it('completes prompt arguments as the person types, then gets the prompt', async () => {
    await open(page, 'prompts', 'code-review');
    await page.type('#detail input[name="code"]', 'const x = 1;');
    await page.type('#detail input[name="language"]', 'typescript');
    await page.type('#detail input[name="framework"]', 'ne');
    await page.waitForFunction(() => {
      const options = [...document.querySelectorAll('#detail input[name="framework"] + datalist option')].map((o) => (o as HTMLOptionElement).value);
      return options.join(',') === 'nestjs,next';
    });
    await page.type('#detail input[name="framework"]', 'stjs');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    const text = await page.$eval('#detail .result', (node) => (node as HTMLElement).innerText);
    expect(text).toContain('I review typescript (nestjs) code at strictness 3.');
    expect(text).toContain('Please review this code:');
  });

  it('calls forecast and hosts its app: the app in the sandboxed iframe shows the tool\'s data', async () => {
    const { frame, sandbox } = await callToolWithApp(page, 'forecast', 'city', 'Lisbon');
    expect(sandbox).toBe('allow-scripts');
    // The View renders only once the host answered ui/initialize and sent ui/notifications/tool-result.
    await frame.waitForSelector('#days:not([hidden])');
    expect(await frame.$eval('#title', (node) => node.textContent)).toBe('Forecast for Lisbon');
    const rows = await frame.$$eval('#days tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const { days } = new ForecastTools().forecast('Lisbon').structuredContent;
    expect(rows).toEqual(days.map((day) => [day.day, day.sky, String(day.high), String(day.low)]));
    expect(await frame.$eval('#status', (node) => node.textContent)).toBe('3 days');
    expect(await frame.evaluate(() => String(window.origin))).toBe('null');
    // The app declares no origins: its frame is served with the policy that allows none.
    expect(new URL(frame.url()).search).toBe('');
    const summaries = await page.$$eval('#log-entries summary', (nodes) => nodes.map((node) => node.textContent));
    expect(summaries.some((line) => /resources\/read ui:\/\/forecast\/view\.html · HTTP 200/.test(line ?? ''))).toBe(true);
  });

  it('serves the app\'s own requests and ignores the same request from the page or another frame', async () => {
    const app = (await (await page.waitForSelector('#detail .result iframe.app'))!.contentFrame())!;
    /** Posts a JSON-RPC request to the page from `from`; with `answer`, waits for the page's answer to it. */
    const post = (from: Frame | Page, id: string, method: string, params: unknown, answer: boolean) =>
      from.evaluate(
        (message, answer) =>
          new Promise((resolve) => {
            if (answer) window.addEventListener('message', (event) => event.data?.id === message.id && resolve(event.data));
            (window.parent === window ? window : window.parent).postMessage(message, '*');
            if (!answer) resolve(undefined);
          }),
        { jsonrpc: '2.0', id, method, params },
        answer,
      );
    const rogueCall = { name: 'hello', arguments: { name: 'Mallory' } };
    // The page itself, then a second frame of the page (the same app frame file, same sandbox).
    await post(page, 'from-page', 'tools/call', rogueCall, false);
    await page.evaluate(() => {
      const rogue = document.createElement('iframe');
      rogue.name = 'rogue';
      rogue.setAttribute('sandbox', 'allow-scripts');
      rogue.src = 'playground/app-frame.html';
      document.body.append(rogue);
    });
    const rogue = await page.waitForFrame((frame) => frame.name() === 'rogue' && frame.url().endsWith('app-frame.html'));
    await post(rogue, 'from-rogue', 'tools/call', rogueCall, false);
    // The app's own request, posted after those: proxied to the server and answered.
    const answer = (await post(app, 'from-app', 'tools/call', { name: 'hello', arguments: { name: 'Grace' } }, true)) as { result: { structuredContent: unknown } };
    expect(answer.result.structuredContent).toEqual({ message: 'Hello, Grace!' });
    const refused = await post(app, 'open-link', 'ui/open-link', { url: 'https://example.com' }, true);
    expect(refused).toEqual({ jsonrpc: '2.0', id: 'open-link', error: { code: -32601, message: expect.stringContaining('ui/open-link') } });
    const sent = await page.$$eval('#log-entries .log-entry pre:first-of-type', (nodes) => nodes.map((node) => node.textContent ?? ''));
    expect(sent.filter((body) => body.includes('"Grace"'))).toHaveLength(1);
    expect(sent.filter((body) => body.includes('Mallory'))).toEqual([]);
    await page.evaluate(() => document.querySelector('iframe[name="rogue"]')!.remove());
  });

  it('takes the screenshot of the docs in a known state, and rewrites docs/playground.png only when it changed', async () => {
    const fresh = await chromium.browser.newPage();
    try {
      await fresh.setViewport({ width: 1280, height: 860 });
      await fresh.goto(`${started.url}/playground`);
      await fresh.waitForSelector('body[data-ready="true"]');
      await askUpgradePlan(fresh, 'user-7', 'team');
      await fresh.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const png = await fresh.screenshot({ type: 'png' });
      mkdirSync('docs', { recursive: true });
      await writeScreenshotIfChanged(chromium.browser, SCREENSHOT, png);
      // Whether it was rewritten or not, the file now shows this state: a second look finds nothing to write.
      const again = await writeScreenshotIfChanged(chromium.browser, SCREENSHOT, png);
      expect(again.written).toBe(false);
      expect(again.differing).toBeLessThan(0.005);
    } finally {
      await fresh.close();
    }
  });

  it('keeps the raw JSON-RPC exchange of each call in the log, with the stream and timings', async () => {
    const summaries = await page.$$eval('#log-entries summary', (nodes) => nodes.map((node) => node.textContent));
    expect(summaries.some((line) => /tools\/call upgrade-plan · HTTP 200 · complete · \d+ ms/.test(line ?? ''))).toBe(true);
    expect(summaries.filter((line) => /tools\/call upgrade-plan · HTTP 200 · input_required/.test(line ?? ''))).toHaveLength(2);
    const processEntry = await page.$$eval('#log-entries .log-entry', (entries) =>
      entries.find((entry) => entry.querySelector('summary')!.textContent!.includes('tools/call process'))!.textContent,
    );
    expect(processEntry).toContain('"method": "notifications/progress"');
    expect(processEntry).toMatch(/received at \+\d+ ms/);
    expect(pageErrors).toEqual([]);
  });
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** A tenth of a second of silence as an 8 kHz, 8-bit mono WAV. */
function silentWav(): Buffer {
  const samples = Buffer.alloc(800, 128);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/**
 * An app that reports what its host gave it: the initialize result, the tool result, what its frame's CSP
 * blocked (it declares one origin it may connect to and tries that and another) and the answers to the
 * tools/call it makes through the host (one allowed, one to a tool hidden from apps).
 */
const BOARD_APP = `<!doctype html><html><body><pre id="out">waiting</pre><script>
const report = { blocked: [] };
document.addEventListener('securitypolicyviolation', (event) => report.blocked.push(event.blockedURI));
const pending = new Map();
let next = 1;
const request = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
});
addEventListener('message', async (event) => {
  const message = event.data;
  if (event.source !== parent || !message || message.jsonrpc !== '2.0') return;
  if (pending.has(message.id)) return pending.get(message.id)(message);
  if (message.method === 'ui/notifications/tool-input') report.input = message.params;
  if (message.method !== 'ui/notifications/tool-result') return;
  report.result = message.params;
  report.whoami = (await request('tools/call', { name: 'whoami', arguments: {} })).result?.content;
  report.secret = (await request('tools/call', { name: 'secret', arguments: {} })).error;
  report.fetched = (await Promise.allSettled([fetch('http://127.0.0.1:9/allowed'), fetch('http://127.0.0.2:9/refused')])).map((outcome) => outcome.status);
  window.report = report;
});
request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'board', version: '1' }, appCapabilities: {} }).then((answer) => {
  report.initialize = answer.result;
  parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, '*');
});
</script></body></html>`;

/** An app resource (`ui://`, `text/html;profile=mcp-app`), media results, a tool error and a guarded tool. */
@Injectable()
class AppResources {
  @McpTool({ name: 'media', description: 'Answers with an image, audio and a resource link' })
  media(): McpToolResult {
    return {
      content: [image(PNG, 'image/png'), audio(silentWav(), 'audio/wav'), resourceLink({ uri: 'ui://counter/app.html', name: 'counter-app', mimeType: 'text/html;profile=mcp-app' })],
    };
  }

  @McpTool({ name: 'route', description: 'Routes by a region mirrored into a header' })
  route(@McpArg('region', { header: 'Region' }) region: string): string {
    return `routed to ${region}`;
  }

  @McpTool({ name: 'fail', description: 'Always refuses' })
  fail(): string {
    throw new McpToolError('Order 42 has shipped; it can no longer be changed');
  }

  @McpResource({ uri: 'ui://counter/app.html', name: 'counter-app', mimeType: 'text/html;profile=mcp-app' })
  app(): string {
    return '<!doctype html><html><body><p id="out">not run</p><script>document.getElementById("out").textContent = "app ran, origin " + String(window.origin);</script></body></html>';
  }

  @McpTool({ name: 'board', description: 'Shows a board app' })
  @McpUi({ resourceUri: 'ui://board/app.html', html: BOARD_APP, resource: { name: 'board-app', ui: { csp: { connectDomains: ['http://127.0.0.1:9'] } } } })
  board(@McpArg('topic') topic: string): McpToolResult {
    return { content: [{ type: 'text', text: `board on ${topic}` }], structuredContent: { topic } };
  }

  @McpTool({ name: 'secret', description: 'For the model only' })
  @McpUi({ resourceUri: 'ui://board/app.html', visibility: ['model'] })
  secret(): string {
    return 'not for apps';
  }

  @McpTool({ name: 'whoami', description: 'Says who the token belongs to' })
  whoami(): string {
    return 'the playground user';
  }
}

const verifier = {
  verify(token: string): McpAuthInfo {
    if (token !== 'let-me-in') throw new Error('unknown token');
    return { token, subject: 'playground', scopes: [], claims: {} };
  },
};

describeWithChromium('the playground with bearer auth and an MCP app resource', () => {
  let started: StartedApp;
  let chromium: HeadlessBrowser;
  let page: Page;

  beforeAll(async () => {
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'guarded',
          // One entry per page: the lists must follow nextCursor.
          pageSize: 1,
          auth: { verifier, resourceMetadata: { resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://auth.example'] } },
        }),
      ],
      providers: [AppResources],
    })
    class GuardedModule {}
    started = await startApp([GuardedModule]);
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await started?.app.close();
  });

  it('serves the page without a token, asks for one on 401, and works once it is typed in', async () => {
    const response = await page.goto(`${started.url}/playground`);
    expect(response?.status()).toBe(200);
    await page.waitForFunction(() => !(document.querySelector('#connection-error') as HTMLElement).hidden);
    expect(await page.$eval('#connection-error', (node) => node.textContent)).toContain('bearer token');
    await page.type('#token', 'let-me-in');
    await page.click('#token-form button[type="submit"]');
    await page.waitForSelector('body[data-ready="true"]');
    await open(page, 'tools', 'whoami');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    expect(await page.$eval('#detail .result .text', (node) => node.textContent)).toBe('the playground user');
  });

  it('lists every entry although the server sends one per page', async () => {
    const tools = await page.$$eval('#list-tools button', (buttons) => buttons.map((button) => button.getAttribute('data-name')));
    expect(tools.sort()).toEqual(['board', 'fail', 'media', 'route', 'secret', 'whoami']);
    const pages = await page.$$eval('#log-entries summary', (nodes) => nodes.filter((node) => / tools\/list · HTTP 200/.test(node.textContent ?? '')).length);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('renders images, audio players and resource links; Read on a link reads the resource', async () => {
    await open(page, 'tools', 'media');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    const media = await page.$eval('#detail .result', (result) => ({
      image: (result.querySelector('img') as HTMLImageElement).src.slice(0, 22),
      audio: (result.querySelector('audio') as HTMLAudioElement).src.slice(0, 22),
      controls: (result.querySelector('audio') as HTMLAudioElement).controls,
      link: result.querySelector('.resource-link code')!.textContent,
    }));
    expect(media).toEqual({ image: 'data:image/png;base64,', audio: 'data:audio/wav;base64,', controls: true, link: 'ui://counter/app.html' });
    // The player decodes it: its duration is known once the metadata loaded.
    await page.waitForFunction(() => (document.querySelector('#detail .result audio') as HTMLAudioElement).readyState >= 1);
    expect(await page.$eval('#detail .result audio', (node) => Math.round((node as HTMLAudioElement).duration * 10))).toBe(1);
    await page.click('#detail .resource-link button');
    await page.waitForSelector('#detail[data-showing="resource:ui://counter/app.html"]');
    expect((await finished(page)).state).toBe('done');
  });

  it('mirrors x-mcp-header arguments into Mcp-Param-* headers (the server refuses a call without them)', async () => {
    await open(page, 'tools', 'route');
    await page.type('#detail input[name="region"]', 'zürich');
    await page.click('#detail form button[type="submit"]');
    expect((await finished(page)).state).toBe('done');
    expect(await page.$eval('#detail .result .text', (node) => node.textContent)).toBe('routed to zürich');
  });

  it('shows an isError result as a tool error', async () => {
    await open(page, 'tools', 'fail');
    await page.click('#detail form button[type="submit"]');
    const run = await finished(page);
    expect(run.state).toBe('tool-error');
    expect(await page.$eval('#detail .result', (node) => [node.classList.contains('is-error'), (node as HTMLElement).innerText])).toEqual([
      true,
      'Tool error\nOrder 42 has shipped; it can no longer be changed',
    ]);
  });

  it('renders a ui:// app resource in a sandboxed iframe with an opaque origin', async () => {
    await open(page, 'resources', 'counter-app');
    expect((await finished(page)).state).toBe('done');
    const frameHandle = await page.waitForSelector('#detail iframe.app');
    expect(await frameHandle!.evaluate((frame) => frame.getAttribute('sandbox'))).toBe('allow-scripts');
    const frame = await frameHandle!.contentFrame();
    await frame!.waitForFunction(() => document.getElementById('out')?.textContent !== undefined && document.getElementById('out')?.textContent !== 'not run');
    expect(await frame!.$eval('#out', (node) => node.textContent)).toBe('app ran, origin null');
  });

  it('hosts a tool\'s app: initialize, input and result, proxied calls with the token, tools hidden from apps refused, the declared CSP', async () => {
    const { frame } = await callToolWithApp(page, 'board', 'topic', 'sprints');
    expect(new URL(frame.url()).searchParams.getAll('connectDomains')).toEqual(['http://127.0.0.1:9']);
    // The CSP violation is reported by its own event, perhaps after the fetch failed: waited for too.
    await frame.waitForFunction(() => ((window as unknown as { report?: { blocked: string[] } }).report?.blocked.length ?? 0) > 0);
    const report = await frame.evaluate(() => (window as unknown as { report: Record<string, unknown> }).report);
    expect(report.initialize).toEqual({
      protocolVersion: '2026-01-26',
      hostInfo: { name: 'nest-mcp-playground', version: '1' },
      hostCapabilities: { serverTools: {}, serverResources: {}, sandbox: { csp: { connectDomains: ['http://127.0.0.1:9'] } } },
      hostContext: expect.objectContaining({ toolInfo: { tool: expect.objectContaining({ name: 'board' }) }, displayMode: 'inline', platform: 'web' }),
    });
    expect(report.input).toEqual({ arguments: { topic: 'sprints' } });
    expect(report.result).toEqual(expect.objectContaining({ content: [{ type: 'text', text: 'board on sprints' }], structuredContent: { topic: 'sprints' } }));
    // Proxied through the page, so with the bearer token the guarded server asks for.
    expect(report.whoami).toEqual([{ type: 'text', text: 'the playground user' }]);
    expect(report.secret).toEqual({ code: -32602, message: 'Tool secret is not available to apps' });
    // The declared origin is not blocked by the frame's CSP (nothing listens there); the other one is.
    expect(report.fetched).toEqual(['rejected', 'rejected']);
    expect(report.blocked).toEqual([expect.stringContaining('127.0.0.2')]);
    const summaries = await page.$$eval('#log-entries summary', (nodes) => nodes.map((node) => node.textContent ?? ''));
    expect(summaries.filter((line) => / tools\/call secret/.test(line))).toEqual([]);
  });
});
