/**
 * A writer's normal change passes the whole suite untouched. On a temporary copy of the repository
 * (node_modules linked) it adds a page to every category of docs/, a new category with one page,
 * and an API operation with a required query parameter; builds; checks the change reached every
 * output; then runs inside the copy the route-driven specs, the contract and Postman specs and the new pages'
 * doc tests.
 * Plain Node (@viewport-independent): it starts its own servers on free ports.
 */
import {execFile} from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify, stripVTControlCharacters} from 'node:util';

import {expect, test} from '@playwright/test';
import {parse as parseYaml} from 'yaml';

import {freePort} from '../lib/ports';
import {SITE} from '../src/constants/site';
import {searchIndexDocuments} from './support/bytes';
import {builtSidebar, docPages, docRoutes, htmlFile} from './support/docs';
import {blockName, listPages, pageBlocks, PAGES_ENV} from './samples/blocks';

const ROOT = path.resolve(__dirname, '..');
// What git ignores at the top level: installed, built or written by test runs.
const NOT_COPIED = new Set([
  '.git',
  'node_modules',
  'build',
  '.docusaurus',
  '.docusaurus-build',
  '.cache-loader',
  'test-results',
  'playwright-report',
  'blob-report',
  'tmp',
]);
const run = promisify(execFile);

type NewPage = {file: string; route: string; title: string; category: string; position: number; word: string};

function frontMatter(file: string): Record<string, unknown> {
  return (parseYaml(/^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '') ?? {}) as Record<
    string,
    unknown
  >;
}

/** A page as README asks writers to write it: front matter, an opening paragraph, three sections, a table, Next steps. */
function pageSource(page: NewPage): string {
  return `---
title: ${page.title}
description: How ${page.title.toLowerCase()} works, when to use it and what to check first; a page added by the writer's-change test.
sidebar_position: ${page.position}
---

This page explains ${page.title.toLowerCase()}; the word ${page.word} marks it for the search index.

## What it is

A short explanation.

| Term | Meaning |
| --- | --- |
| Zone | A group of destinations one plan covers |

## How to use it

Follow the steps in order.

## Next steps

- [Quick start](/getting-started/quick-start)
${page.word === NEW_OPERATION_PAGE_WORD ? operationSample() : ''}`;
}

/** The new category's page documents the new operation, as a writer adding one does: every operation has a sample. */
const NEW_OPERATION_PAGE_WORD = 'trialwordnew';

function operationSample(): string {
  const url = `https://sandbox.api.example.com${OPERATION.path}?${OPERATION.query}=${OPERATION.sample}`;
  return `
## Search destinations

import {RequiredScopes} from '@site/src/components/ApiTables';

With a credential that holds <RequiredScopes samples operations={['${OPERATION.method} ${OPERATION.path}']} />:

\`\`\`bash run
set -euo pipefail
ACCESS_TOKEN=$(curl -sS --fail-with-body -X POST https://sandbox.api.example.com/oauth/token \\
  -d grant_type=client_credentials -d client_id="$ACME_CLIENT_ID" -d client_secret="$ACME_CLIENT_SECRET" \\
  | jq -r '.access_token // error("no token: \\(.)")')
curl -sS --fail-with-body "${url}" -H "Authorization: Bearer $ACCESS_TOKEN" | jq .
\`\`\`
`;
}

/** One page per category, between its first two pages (or after its only one), and a new category. */
function plannedPages(docsDir: string): {pages: NewPage[]; newCategory: {dir: string; label: string}} {
  const pages = readdirSync(docsDir, {withFileTypes: true})
    .filter((entry) => entry.isDirectory() && existsSync(path.join(docsDir, entry.name, '_category_.json')))
    .map((entry, index) => {
      const dir = path.join(docsDir, entry.name);
      const label = (JSON.parse(readFileSync(path.join(dir, '_category_.json'), 'utf8')) as {label: string}).label;
      const positions = readdirSync(dir)
        .filter((name) => /\.mdx?$/.test(name))
        .map((name) => Number(frontMatter(path.join(dir, name)).sidebar_position))
        .sort((a, b) => a - b);
      const position = positions.length > 1 ? (positions[0]! + positions[1]!) / 2 : (positions[0] ?? 0) + 1;
      return {
        file: `docs/${entry.name}/writer-trial.mdx`,
        route: `/${entry.name}/writer-trial`,
        title: `${label} trial topic`,
        category: label,
        position,
        word: `trialword${index}`,
      };
    });
  const newCategory = {dir: 'writer-trial-category', label: 'Trial category'};
  pages.push({
    file: `docs/${newCategory.dir}/first-page.mdx`,
    route: `/${newCategory.dir}/first-page`,
    title: 'Trial category topic',
    category: newCategory.label,
    position: 1,
    word: NEW_OPERATION_PAGE_WORD,
  });
  return {pages, newCategory};
}

/** An operation a writer adds: a new path under an existing tag, with a scope and a required query parameter. */
const OPERATION = {
  method: 'GET',
  path: '/v1/destinations/search',
  summary: 'Search destinations',
  query: 'q',
  sample: 'jap',
};
const OPERATION_YAML = `
  ${OPERATION.path}:
    get:
      tags: [Catalogue]
      operationId: searchDestinations
      summary: ${OPERATION.summary}
      description: Destinations whose name starts with the query.
      security:
        - oauth2: [catalog:read]
      parameters:
        - name: ${OPERATION.query}
          in: query
          required: true
          description: The start of a destination name.
          schema: {type: string, minLength: 1}
          example: ${OPERATION.sample}
      responses:
        '200':
          description: Matching destinations.
          headers: *standardHeaders
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/DestinationList'
              example:
                data:
                  - code: JP
                    name: Japan
                    type: country
                    countries: [JP]
                has_more: false
                next_cursor: null
        '400': {$ref: '#/components/responses/BadRequest'}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '403': {$ref: '#/components/responses/Forbidden'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '500': {$ref: '#/components/responses/ServerError'}
        '502': {$ref: '#/components/responses/ServerError'}
        '503': {$ref: '#/components/responses/ServerError'}
`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for the titles of tests about one of these pages: they name its route or its source file. */
function testsOfOnePage(pages: string[]): string {
  const names = pages.map(escapeRegExp);
  return `(^|\\s)(${names.join('|')})(\\s|$)`;
}

/**
 * The test files under `dirs` whose source `reads` the pages or the contract: the others (README's commands,
 * the not-found page, the sandbox's token errors…) cannot change with a new page or operation.
 */
function derivedTests(dirs: string[], reads: RegExp): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .filter((name) => /\.(spec|test)\.ts$/.test(name) && !name.endsWith('.mobile.spec.ts'))
      .map((name) => `${dir}/${name}`)
      .filter(
        (file) => file !== path.relative(ROOT, __filename) && reads.test(readFileSync(path.join(ROOT, file), 'utf8')),
      ),
  );
}
/** The browser and build specs that take their pages from the build (sitemap, sidebar) or their operations from the contract. */
const derivedSpecs = () =>
  derivedTests(['tests'], /\b(docRoutes|docPages|builtSidebar|listOperations)\b/)
    // nginx has its own spec set; it serves the same build.
    .filter((file) => file !== 'tests/nginx.spec.ts');
/** The doc tests that run every selected page's samples, or read the contract's operations or its Postman files. */
const derivedDocTests = () =>
  derivedTests(['tests/samples', 'sandbox', 'sdk'], /\b(selectedPages|listOperations|generateArtifacts)\b/);

type JsonReport = {stats: {expected: number; unexpected: number; flaky: number; skipped: number}; suites: JsonSuite[]};
type JsonSpec = {
  title: string;
  ok: boolean;
  file: string;
  tests?: {results?: {error?: {message?: string}}[]}[];
};
type JsonSuite = {title: string; specs?: JsonSpec[]; suites?: JsonSuite[]};
const specsOf = (suites: JsonSuite[]): JsonSpec[] =>
  suites.flatMap((suite) => [...(suite.specs ?? []), ...specsOf(suite.suites ?? [])]);
/** Each failed test of the copy, with the first lines of its error (the copy is deleted afterwards). */
const failed = (report: JsonReport) =>
  specsOf(report.suites)
    .filter((spec) => !spec.ok)
    .map((spec) => {
      const error = spec.tests?.flatMap((test) => test.results ?? []).find((result) => result.error)?.error?.message;
      const lines = stripVTControlCharacters(error ?? 'no error message')
        .split('\n')
        .slice(0, 6);
      return `${spec.file}: ${spec.title}\n  ${lines.join('\n  ')}`;
    });

async function playwright(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<JsonReport> {
  const {stdout} = await run(
    path.join(dir, 'node_modules', '.bin', 'playwright'),
    ['test', ...args, '--reporter=json'],
    {cwd: dir, env, maxBuffer: 256 * 1024 * 1024},
  ).catch((error: Error & {stdout?: string}) => ({stdout: error.stdout ?? ''}));
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as JsonReport;
  return report;
}

test(
  'a page in every category, a new category and a new API operation pass the whole suite untouched',
  {tag: '@viewport-independent'},
  async () => {
    test.setTimeout(1_200_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'docs-writer-change-'));
    try {
      cpSync(ROOT, dir, {
        recursive: true,
        filter: (source) => !NOT_COPIED.has(path.relative(ROOT, source).split(path.sep)[0]!),
      });
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      const existingPages = [...docRoutes(), ...listPages().map((file) => path.relative(ROOT, file))];
      const {pages, newCategory} = plannedPages(path.join(dir, 'docs'));
      mkdirSync(path.join(dir, 'docs', newCategory.dir));
      writeFileSync(
        path.join(dir, 'docs', newCategory.dir, '_category_.json'),
        JSON.stringify({label: newCategory.label, position: 99, collapsible: false, link: null}, null, 2),
      );
      for (const page of pages) writeFileSync(path.join(dir, page.file), pageSource(page));
      const contract = readFileSync(path.join(dir, 'api/openapi.yaml'), 'utf8');
      const anchor = contract.indexOf('\n  /v1/packages:\n');
      expect(anchor, 'api/openapi.yaml has /v1/packages to insert before').toBeGreaterThan(0);
      writeFileSync(
        path.join(dir, 'api/openapi.yaml'),
        `${contract.slice(0, anchor)}\n${OPERATION_YAML}${contract.slice(anchor)}`,
      );

      const env: NodeJS.ProcessEnv = {...process.env, CI: '1', DOCS_PORT: String(await freePort())};
      delete env.DOCS_LLMS;
      delete env.DOCS_WEB_SERVER;
      // The inner runs' whole JSON reports are read from stdout: an outer run's JSON reporter settings (a file,
      // failures only) or extra reporter would change them.
      for (const name of Object.keys(env)) if (name.startsWith('PLAYWRIGHT_JSON_')) delete env[name];
      delete env.PW_TEST_REPORTER;
      await run('npm', ['run', 'build:e2e'], {cwd: dir, env, maxBuffer: 64 * 1024 * 1024}).catch(
        (error: Error & {stdout?: string; stderr?: string}) => {
          throw new Error(
            `npm run build:e2e failed in ${dir}:\n${error.stderr ?? ''}\n${(error.stdout ?? '').slice(-4000)}`,
          );
        },
      );
      const build = path.join(dir, 'build');
      const read = (file: string) => readFileSync(path.join(build, file), 'utf8');

      // Every new page: in the sitemap, in its category of the sidebar at its sidebar_position, titled from front matter.
      const routes = docRoutes(build);
      const sidebar = builtSidebar(build);
      for (const page of pages) {
        expect(routes, page.file).toContain(page.route);
        expect(docPages(build)).toContainEqual({path: page.route, title: page.title});
        const category = sidebar.find((group) => group.label === page.category);
        const placed = category?.pages.findIndex((entry) => entry.path === page.route) ?? -1;
        const before = readdirSync(path.dirname(path.join(dir, page.file)))
          .filter((name) => /\.mdx?$/.test(name) && name !== path.basename(page.file))
          .filter(
            (name) =>
              Number(frontMatter(path.join(path.dirname(path.join(dir, page.file)), name)).sidebar_position) <
              page.position,
          ).length;
        expect(placed, `${page.route} in "${page.category}" after the ${before} page(s) placed before it`).toBe(before);
        expect(/<title[^>]*>([^<]*)<\/title>/.exec(readFileSync(htmlFile(page.route, build), 'utf8'))?.[1]).toBe(
          `${page.title} | ${SITE.title}`,
        );
        // Its Markdown twin and its line in llms.txt.
        expect(read(`${page.route.slice(1)}.md`)).toContain(page.word);
        expect(read('llms.txt')).toContain(`[${page.title}](${SITE.url}${page.route}.md)`);
      }
      expect(sidebar.flatMap((group) => group.pages.map((page) => page.path)).sort()).toEqual([...routes].sort());
      // The search index holds the new pages' words.
      const documents = searchIndexDocuments(build);
      for (const page of pages)
        expect(
          documents.some((document) => document.u === page.route && document.t.includes(page.word)),
          page.route,
        ).toBe(true);

      // The operation: in the served contract, in the Postman collection with its required parameter on
      // and a sample value, and in the scopes the Test in Postman page lists per request.
      const openapi = parseYaml(read('openapi.yaml')) as {
        paths: Record<string, Record<string, {security: {oauth2: string[]}[]}>>;
      };
      expect(openapi.paths[OPERATION.path]?.get?.security).toEqual([{oauth2: ['catalog:read']}]);
      const collection = readdirSync(path.join(build, 'postman')).find((name) =>
        name.endsWith('.postman_collection.json'),
      )!;
      type Request = {
        name: string;
        request: {url: {path: string[]; query?: {key: string; value: string; disabled?: boolean}[]}};
      };
      const requests = (JSON.parse(read(`postman/${collection}`)) as {item: {item: Request[]}[]}).item.flatMap(
        (folder) => folder.item,
      );
      const added = requests.find((request) => request.name === OPERATION.summary);
      expect(added?.request.url.query).toContainEqual(
        expect.objectContaining({key: OPERATION.query, value: OPERATION.sample, disabled: false}),
      );
      expect(readFileSync(htmlFile('/basics/test-in-postman', build), 'utf8')).toContain(OPERATION.summary);

      // The suite itself, in the copy: the route-driven and contract specs on the desktop and of the build, leaving out the tests
      // of one page that existed before (a new page or operation cannot change them), then the doc tests.
      const unchanged = `--grep-invert=${testsOfOnePage(existingPages)}`;
      const e2e = await playwright(dir, [...derivedSpecs(), '--project=desktop', '--project=build', unchanged], env);
      expect(failed(e2e), `failures in the copy ${dir}`).toEqual([]);
      expect(e2e.stats.expected).toBeGreaterThan(0);
      const titles = specsOf(e2e.suites).map((spec) => spec.title);
      for (const page of pages)
        expect(
          titles.some((title) => title.includes(page.route)),
          `a test names ${page.route}`,
        ).toBe(true);
      // The doc tests of the new pages, and those derived from every page or the contract. Another page's samples
      // cannot change with this one, nor with an operation none of them calls; the coverage check then asks the
      // new pages for the operations only they are scoped for: the new one.
      const existingBlocks = listPages().flatMap((file) => pageBlocks(file));
      expect(existingBlocks.filter((block) => block.code.includes(OPERATION.path)).map(blockName)).toEqual([]);
      const docs = await playwright(dir, [...derivedDocTests(), '--project=docs'], {
        ...env,
        DOCS_WEB_SERVER: 'off',
        [PAGES_ENV]: pages.map((page) => page.file).join(','),
      });
      expect(failed(docs), `doc-test failures in the copy ${dir}`).toEqual([]);
      const docTitles = specsOf(docs.suites).map((spec) => spec.title);
      for (const page of pages)
        expect(
          docTitles.some((title) => title.startsWith(page.file)),
          page.file,
        ).toBe(true);
      expect(docTitles.some((title) => /^every operation .*has a runnable sample/.test(title))).toBe(true);
      expect(existsSync(path.join(ROOT, pages[0]!.file)), 'the repository itself is untouched').toBe(false);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  },
);
