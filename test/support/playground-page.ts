/// <reference lib="dom" />
// The playground page driven as a person drives it (puppeteer-core on Debian's chromium): shared by the
// playground-* browser specs. The callbacks of page.$eval run in the page (DOM types).
import type { Page } from 'puppeteer-core';
import { launchChromium, type HeadlessBrowser } from './browser.js';
import { startApp, type StartedApp } from './mcp-http.js';

export interface OpenPlayground {
  started: StartedApp;
  chromium: HeadlessBrowser;
  page: Page;
  close(): Promise<void>;
}

/** Starts an app of `modules`, and a Chromium page at its playground once the lists are read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- modules of any kind, as startApp takes them
export async function openPlayground(modules: any[], onPage: (page: Page) => void = () => undefined): Promise<OpenPlayground> {
  const started = await startApp(modules);
  const chromium = await launchChromium();
  const page = await chromium.browser.newPage();
  onPage(page);
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${started.url}/playground`);
  await page.waitForSelector('body[data-ready="true"]');
  return {
    started,
    chromium,
    page,
    async close() {
      await chromium.close();
      await started.app.close();
    },
  };
}

/** Clicks an entry of a list tab (tools, prompts, resources, templates). */
export async function open(page: Page, tab: string, name: string): Promise<void> {
  await page.click(`[role="tab"][data-tab="${tab}"]`);
  await page.click(`#list-${tab} button[data-name="${name}"]`);
  await page.waitForSelector(`#detail[data-showing^="${tab === 'templates' ? 'template' : tab.replace(/s$/, '')}:"]`);
}

/** Waits for the run in the detail panel to end, and returns its state and text. */
export async function finished(page: Page): Promise<{ state: string; text: string }> {
  await page.waitForSelector('#detail .run:not([data-state="running"])');
  return page.$eval('#detail .run', (run) => ({ state: (run as HTMLElement).dataset.state!, text: (run as HTMLElement).innerText }));
}

/** Waits for the elicitation form asking `message`. */
export function question(page: Page, message: string) {
  return page.waitForSelector(`#detail .elicitation[aria-label="${message}"]`);
}

/** The progress bar of the run in the detail panel, as it stands. */
export function progressBar(page: Page): Promise<{ value: number; max: number; count: string; message: string }> {
  return page.$eval('#detail .progress', (node) => ({
    value: (node.querySelector('progress') as HTMLProgressElement).value,
    max: (node.querySelector('progress') as HTMLProgressElement).max,
    count: node.querySelector('.progress-count')!.textContent!,
    message: node.querySelector('.progress-message')!.textContent!,
  }));
}

/** Calls the sample's quarterly-report for `pages` pages, confirms it, and waits for the run to end. */
export async function buildReport(page: Page, pages: number): Promise<{ state: string; text: string }> {
  await open(page, 'tools', 'quarterly-report');
  await page.type('#detail input[name="pages"]', String(pages));
  await page.click('#detail form button[type="submit"]');
  await question(page, `Build a ${pages}-page report? It takes about ${pages} seconds.`);
  await page.click('#detail .elicitation input[name="confirmed"]');
  await page.click('#detail .elicitation button[data-action="accept"]');
  return finished(page);
}

/** Switches the page to an era (`modern`, `legacy`) and waits for the lists read in it. */
export async function switchEra(page: Page, era: 'modern' | 'legacy'): Promise<void> {
  await page.select('#era', era);
  await page.waitForSelector(`body[data-ready="true"][data-era="${era}"]`);
}

/** Calls the sample's upgrade-plan for `userId` up to its first question, with `plan` chosen in it. */
export async function askUpgradePlan(page: Page, userId: string, plan: string): Promise<void> {
  await open(page, 'tools', 'upgrade-plan');
  await page.type('#detail input[name="userId"]', userId);
  await page.click('#detail form button[type="submit"]');
  await question(page, 'Pick a plan');
  await page.select('#detail .elicitation select[name="plan"]', plan);
}

/** Calls upgrade-plan and answers both its questions (the plan, then the confirmation); returns the run. */
export async function upgradePlan(page: Page, userId: string, plan: string): Promise<{ state: string; text: string }> {
  await askUpgradePlan(page, userId, plan);
  await page.click('#detail .elicitation button[data-action="accept"]');
  await question(page, `Confirm upgrade to ${plan}?`);
  await page.click('#detail .elicitation input[name="confirmed"]');
  await page.click('#detail .elicitation button[data-action="accept"]');
  return finished(page);
}
