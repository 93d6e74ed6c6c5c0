/**
 * What depends on Docusaurus internals was checked against one theme version. When the installed
 * version changes, this fails and names the files to re-check against the new theme (README,
 * "Upgrading Docusaurus"). It also keeps that list true: every theme component that is not a wrap of
 * `@theme-original/…` must be on it. Plain Node test: no browser, no build (tagged
 * @viewport-independent: run once, not again for the phone).
 */
import {readFileSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

const ROOT = path.resolve(__dirname, '..');

/** The @docusaurus/theme-classic version the files below were last compared with. */
const CHECKED_AGAINST = '3.7.0';

/** Files that copy or reach into Docusaurus 3.7 internals, relative to the repository root. */
const TOUCHES_INTERNALS = [
  'src/theme/Tabs/index.tsx',
  'src/theme/CodeBlock/index.tsx',
  'src/theme/prism-include-languages/index.ts',
  'plugins/lean-prism/index.ts',
  'plugins/search-ask-ai-off/index.ts',
  'plugins/search-code-terms/index.ts',
  'plugins/search-highlight-guard/index.ts',
  'plugins/search-query-terms/index.ts',
  'plugins/self-contained-workers/index.ts',
];

function themeComponents(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      return themeComponents(file);
    }
    return /^index\.tsx?$/.test(name) ? [path.relative(ROOT, file)] : [];
  });
}

test('the installed Docusaurus theme is the version the internals were checked against', {tag: '@viewport-independent'}, () => {
  const installed = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@docusaurus/theme-classic/package.json'), 'utf8')) as {version: string}).version;
  expect(
    installed,
    `@docusaurus/theme-classic is ${installed}, but these files were checked against ${CHECKED_AGAINST}: ` +
      `compare each with the new theme, then update CHECKED_AGAINST:\n${TOUCHES_INTERNALS.join('\n')}`,
  ).toBe(CHECKED_AGAINST);
});

test('every theme component that is not a wrap is on the list of files to re-check', {tag: '@viewport-independent'}, () => {
  const notWraps = themeComponents(path.join(ROOT, 'src/theme')).filter(
    (file) => !/from '@theme-original\//.test(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(notWraps.length, 'theme components found').toBeGreaterThan(0);
  expect(notWraps.filter((file) => !TOUCHES_INTERNALS.includes(file)), 'not wraps, missing from TOUCHES_INTERNALS').toEqual([]);
  for (const file of TOUCHES_INTERNALS) {
    expect(statSync(path.join(ROOT, file)).isFile(), `${file} is listed but does not exist`).toBe(true);
  }
});
