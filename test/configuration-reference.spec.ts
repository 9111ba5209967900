import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SETTING_TABLE, type SettingDescriptor } from '../lib/config/setting-table.js';
import { environmentName } from '../lib/config/setting-sources.js';
import { REPOSITORY_ROOT } from './support/doc-blocks.js';

// docs/reference/configuration.md lists every setting of lib/config/setting-table.ts, as the table
// declares it: the option, the config key and its environment form, the default, the meaning. The table
// is the one place they are written; the page's rows are rendered from it, so a setting added, renamed or
// given another default without its row (or the other way round) fails here, showing the rows expected.

const PAGE = 'docs/reference/configuration.md';
const START = '<!-- settings: rendered from lib/config/setting-table.ts, checked by test/configuration-reference.spec.ts -->';
const END = '<!-- end of settings -->';

function row(key: string, descriptor: SettingDescriptor<unknown>): string {
  const option = descriptor.option === undefined ? '—' : `\`${descriptor.option}\``;
  const shown = descriptor.shownDefault ?? (descriptor.default === undefined ? '—' : `\`${String(descriptor.default)}\``);
  return `| ${option} | \`${key}\` (\`${environmentName(key)}\`) | ${shown} | ${descriptor.meaning} |`;
}

function renderedTable(): string {
  const rows = Object.entries(SETTING_TABLE).map(([key, descriptor]) => row(key, descriptor as SettingDescriptor<unknown>));
  return ['| option | config key (env form) | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

function tableOfPage(): string {
  const text = readFileSync(path.join(REPOSITORY_ROOT, PAGE), 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE} lacks the settings markers`);
  return text.slice(start + START.length, end).trim();
}

describe(`the settings table of ${PAGE}`, () => {
  it('is the settings table of lib/config, row for row', () => {
    expect(tableOfPage()).toBe(renderedTable());
  });

  it('shows each plain default as the resolution uses it, and a written default only where there is none to show', () => {
    for (const [key, descriptor] of Object.entries(SETTING_TABLE) as Array<[string, SettingDescriptor<unknown>]>) {
      // A default the settings use must parse as a value a user could set.
      if (descriptor.default !== undefined) expect(() => descriptor.type.parse(descriptor.default, key)).not.toThrow();
      // Only a default the resolution computes (or takes from elsewhere) is described in words.
      if (descriptor.shownDefault !== undefined && descriptor.default !== undefined) expect(descriptor.shownDefault).toContain(`\`${String(descriptor.default)}\``);
    }
  });
});
