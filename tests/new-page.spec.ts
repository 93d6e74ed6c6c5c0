/**
 * A page is one file: a new MDX file under docs/ (front matter and a body, no other file edited)
 * lands in the sidebar, the sitemap, the search index, llms.txt and llms-full.txt, gets its own
 * Markdown twin, is in the page list every route-driven test takes (tests/support/docs.ts), and fits
 * the byte budgets. Plain Node, no browser: it copies the repository to a temporary directory, adds
 * the page there and runs one production build (30–60 s), so it does not touch build/. Tagged
 * @viewport-independent: it runs once, not again for the phone.
 */
import {execFile} from 'node:child_process';
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';

import {expect, test} from '@playwright/test';

import {SITE} from '../src/constants/site';
import {gzipSize, loadBudgets, routeAssets, searchIndexFiles} from './support/bytes';
import {builtSidebar, docPages, docRoutes, htmlFile} from './support/docs';

const ROOT = path.resolve(__dirname, '..');
// What git ignores at the top level: installed, built or written by test runs.
const NOT_COPIED = new Set(['.git', 'node_modules', 'build', '.docusaurus', '.docusaurus-build', '.cache-loader', 'test-results', 'playwright-report', 'blob-report', 'tmp']);

const PAGE = {
  file: 'docs/basics/new-page.mdx',
  route: '/basics/new-page',
  twin: '/basics/new-page.md',
  title: 'Roaming zones',
  description: 'Which destinations share a roaming zone, and how a zone decides where one eSIM data plan works.',
  // Between SDK (1) and Iframe (2) of the Basics category.
  position: 1.5,
  // A word no other page has, to find the page's text in the search index.
  word: 'zonequokka',
};

const MDX = `---
title: ${PAGE.title}
description: ${PAGE.description}
sidebar_position: ${PAGE.position}
---

A roaming zone groups destinations that one plan covers; the word ${PAGE.word} marks this page.

## What a zone is

A set of destinations with the same networks.

## Choosing a zone

Pick the smallest zone that covers the trip.

## Changing zones

Buy a plan for the new zone.
`;

test('a new MDX file under docs/ is a page everywhere, with no other file edited', {tag: '@viewport-independent'}, async () => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-new-page-'));
  try {
    cpSync(ROOT, dir, {recursive: true, filter: (source) => !NOT_COPIED.has(path.relative(ROOT, source).split(path.sep)[0]!)});
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeFileSync(path.join(dir, PAGE.file), MDX);

    const started = Date.now();
    const env = {...process.env};
    // The plain production build, whatever the environment of the test run asks for.
    delete env.DOCS_LLMS;
    delete env.DOCS_CRASH_TEST;
    await promisify(execFile)(path.join(dir, 'node_modules', '.bin', 'docusaurus'), ['build'], {cwd: dir, env, maxBuffer: 64 * 1024 * 1024}).catch(
      (error: Error & {stdout?: string; stderr?: string}) => {
        throw new Error(`docusaurus build failed in ${dir}:\n${error.stderr ?? ''}\n${(error.stdout ?? '').slice(-4000)}`);
      },
    );
    test.info().annotations.push({type: 'build', description: `${((Date.now() - started) / 1000).toFixed(1)} s`});
    const build = path.join(dir, 'build');
    const read = (file: string) => readFileSync(path.join(build, file), 'utf8');

    // The sidebar, on every page (here its own and /): in Basics, placed by its sidebar_position.
    for (const route of ['/', PAGE.route]) {
      const basics = builtSidebar(build, route).find((group) => group.label === 'Basics');
      expect(basics?.pages.map((page) => page.path), `the sidebar of ${route}`).toEqual(['/basics/sdk', PAGE.route, '/basics/iframe', '/basics/test-in-postman']);
      expect(basics?.pages[1]?.title).toBe(PAGE.title);
    }

    // The sitemap, and so every route-driven test (they take their pages from tests/support/docs.ts).
    const routes = docRoutes(build);
    expect(routes).toContain(PAGE.route);
    expect(docPages(build)).toContainEqual({path: PAGE.route, title: PAGE.title});
    expect(builtSidebar(build).flatMap((group) => group.pages.map((page) => page.path)).sort()).toEqual([...routes].sort());

    // The page: its title from front matter, its description, its "View as Markdown" link.
    const html = readFileSync(htmlFile(PAGE.route, build), 'utf8');
    expect(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1]).toBe(`${PAGE.title} | ${SITE.title}`);
    expect(/<h1>([^<]*)<\/h1>/.exec(html)?.[1]).toBe(PAGE.title);
    expect(html).toContain(PAGE.description);
    const twinLink = new RegExp(`<a [^>]*href="?${PAGE.twin.replace(/\./g, '\\.')}[" >][\\s\\S]*?</a>`).exec(html)?.[0];
    expect(twinLink, 'the "View as Markdown" link').toContain('View as Markdown');

    // The search index: the page under its category, and its text.
    type SearchDocument = {t: string; u: string; b?: string[]};
    const parts = searchIndexFiles(build).flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as Array<{documents: SearchDocument[]}>);
    expect(parts.flatMap((part) => part.documents)).toContainEqual(expect.objectContaining({t: PAGE.title, u: PAGE.route, b: ['Basics']}));
    expect(parts.some((part) => part.documents.some((document) => document.u === PAGE.route && document.t.includes(PAGE.word)))).toBe(true);

    // Its Markdown twin, llms.txt (under Basics, after SDK) and llms-full.txt.
    const twin = read(PAGE.twin);
    expect(twin.startsWith(`# ${PAGE.title}\n\nURL: ${SITE.url}${PAGE.route}\n\n> ${PAGE.description}\n`)).toBe(true);
    expect(twin).toContain(PAGE.word);
    const llms = read('llms.txt');
    const basics = llms.slice(llms.indexOf('\n## Basics\n'), llms.indexOf('\n## ', llms.indexOf('\n## Basics\n') + 1));
    expect(basics).toContain(`- [SDK](${SITE.url}/basics/sdk.md)`);
    expect(basics.indexOf(`- [${PAGE.title}](${SITE.url}${PAGE.twin}): ${PAGE.description}\n`)).toBeGreaterThan(basics.indexOf('- [SDK]'));
    expect(read('llms-full.txt')).toContain(twin);

    // The byte budgets hold with one page more: route JS and CSS do not grow with the pages, the
    // search index gets its allowance per page.
    const budgets = loadBudgets();
    const assets = routeAssets(PAGE.route, build);
    const sdk = routeAssets('/basics/sdk', build);
    const index = searchIndexFiles(build).reduce((sum, file) => sum + gzipSize(file), 0);
    test.info().annotations.push({
      type: 'size',
      description: `${PAGE.route}: JS ${assets.jsGzip} B, CSS ${assets.cssGzip} B gzip (/basics/sdk: ${sdk.jsGzip} B, ${sdk.cssGzip} B); search index ${index} B gzip for ${routes.length} pages`,
    });
    expect(assets.jsGzip).toBeLessThanOrEqual(budgets.routeJs);
    expect(assets.cssGzip).toBeLessThanOrEqual(budgets.routeCss);
    expect(index).toBeLessThanOrEqual(budgets.searchIndexPerPage * routes.length);
    expect(existsSync(path.join(ROOT, PAGE.file)), 'the repository itself is untouched').toBe(false);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
