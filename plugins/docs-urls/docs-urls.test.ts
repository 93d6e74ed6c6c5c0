import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import type {LoadContext} from '@docusaurus/types';

import {assertSiteUrlsResolve, checkBuildUrls, formatProblems, resolveSitePath} from '../../lib/site-urls';
import type {CheckOptions} from '../../lib/site-urls';
import pluginDocsUrls, {PLUGIN_NAME} from './index';

const SITE_URL = 'https://docs.example.com';

/** A page as Docusaurus minifies it: unquoted attributes, a highlighted code block, a canonical link. */
const page = (sitePath: string, body: string) =>
  `<!doctype html><html lang=en><head><link data-rh=true rel=canonical href=${SITE_URL}${sitePath}>` +
  `<meta property=og:url content="${SITE_URL}${sitePath}"></head><body><main>${body}</main></body></html>`;

/** One line of a Prism JSON code block, the string split into spans as the highlighter may do. */
const codeLine = (url: string) =>
  `<pre><code><span class=token-line><span class="token property">"doc_url"</span><span class="token operator">:</span>` +
  `<span class="token string">"${url.slice(0, 30)}</span><span class="token string">${url.slice(30)}"</span><br></span></code></pre>`;

const GOOD_BUILD: Record<string, string> = {
  'index.html': page('/', '<h1 id=intro>Intro</h1>'),
  'getting-started/main-concepts.html': page(
    '/getting-started/main-concepts',
    `<h2 id="errors">Errors</h2><h3 id=insufficient_balance>insufficient_balance</h3><a name=legacy></a>${codeLine(
      `${SITE_URL}/getting-started/main-concepts#insufficient_balance`,
    )}<p>See <a href="${SITE_URL}/getting-started/main-concepts#errors">errors</a>, or ${SITE_URL}/.</p>`,
  ),
  'basics/index.html': page('/basics', '<p>Basics</p>'),
  'openapi.yaml': `info:\n  description: Errors are at ${SITE_URL}/getting-started/main-concepts#errors.\nexamples:\n  doc_url: '${SITE_URL}/getting-started/main-concepts#insufficient_balance'\n`,
  'postman/collection.json': `${JSON.stringify({info: {description: `Docs: [main concepts](${SITE_URL}/getting-started/main-concepts#legacy)\nSpec: ${SITE_URL}/openapi.yaml`}}, null, 2)}\n`,
  'llms.txt': `# Docs\n\n- [Main concepts](${SITE_URL}/getting-started/main-concepts.md): concepts\n- [Basics](/basics): basics\n`,
  'getting-started/main-concepts.md': [
    '# Main concepts',
    `URL: ${SITE_URL}/getting-started/main-concepts`,
    'See [the intro](/#intro) and [errors][e].',
    '[e]: /getting-started/main-concepts#errors',
    '```markdown\n[in a code block](/not-checked)\n```',
    'Inline `[code](/not-checked-either)` too; other sites: https://docs.example.community/x https://api.example.com/v1.\n',
  ].join('\n\n'),
  // Not checked: bundles, the search index, dot-files.
  'assets/js/main.js': `"${SITE_URL}/gone"`,
  'search-index-abc.json': `["${SITE_URL}/gone"]`,
  '.nginx/x.json': `"${SITE_URL}/gone"`,
};

let builds = 0;
/** A fresh build directory holding these files, in the test's output directory. */
async function buildOf(files: Record<string, string>): Promise<string> {
  const dir = test.info().outputPath(`build-${++builds}`);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true});
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

const check = async (files: Record<string, string>, options: Pick<CheckOptions, 'files' | 'alsoServed'> = {}) =>
  checkBuildUrls({buildDir: await buildOf(files), siteUrl: SITE_URL, ...options});

test.describe('docs-urls check', () => {
  test('resolves site paths as the web server does', () => {
    const served = new Set(['index.html', 'a.html', 'b/index.html', 'openapi.yaml', 'img/x.png']);
    // Each path and the file it is served from: the last two none.
    const paths = ['/', '/a', '/a.html', '/b', '/b/', '/openapi.yaml', '/img/x.png', '/c', '/%E0%A4%A'];
    const files = ['index.html', 'a.html', 'a.html', 'b/index.html', 'b/index.html', 'openapi.yaml', 'img/x.png'];
    expect(paths.map((sitePath) => resolveSitePath(sitePath, served))).toStrictEqual([...files, undefined, undefined]);
    expect(resolveSitePath('/a', served, '/docs/')).toBeUndefined();
    expect(resolveSitePath('/docs/a', new Set(['a.html']), '/docs/')).toBe('a.html');
  });

  test('a build whose site URLs all resolve has no problems; a missing page (here in JSON) or anchor (here in YAML) is reported with the file and line', async () => {
    expect(await check(GOOD_BUILD)).toEqual([]);
    const noAnchor = `${SITE_URL}/getting-started/main-concepts#insufficient_balanc`;
    const noPage = `${SITE_URL}/errors#insufficient_balance`;
    const problems = await check({
      ...GOOD_BUILD,
      'openapi.yaml': `${GOOD_BUILD['openapi.yaml']}  other: ${noAnchor}\n`,
      'postman/env.json': `{\n  "values": [\n    {"key": "docs", "value": "${noPage}"}\n  ]\n}\n`,
    });
    expect(problems).toEqual([
      {
        file: 'openapi.yaml',
        line: 5,
        url: noAnchor,
        kind: 'no-anchor',
        message:
          'no such anchor #insufficient_balanc on /getting-started/main-concepts (getting-started/main-concepts.html)',
      },
      {file: 'postman/env.json', line: 3, url: noPage, kind: 'no-page', message: 'no such page /errors'},
    ]);
  });

  test('absolute and site-relative URLs in Markdown are reported, once per file, outside code only', async () => {
    const problems = await check({
      ...GOOD_BUILD,
      'basics/sdk.md': [
        '# SDK',
        `Read ${SITE_URL}/basics/sdk-v2 or [this](${SITE_URL}/basics/sdk-v2).`,
        'And [that](/getting-started/main-concepts#no-such-heading "title"), <a href="/nowhere">here</a>.',
        '```json\n{"doc_url": "' + SITE_URL + '/errors#in_code"}\n```\n',
      ].join('\n\n'),
    });
    expect(problems.map(({file, line, url, kind}) => ({file, line, url, kind}))).toEqual([
      {file: 'basics/sdk.md', line: 3, url: `${SITE_URL}/basics/sdk-v2`, kind: 'no-page'},
      {file: 'basics/sdk.md', line: 5, url: '/getting-started/main-concepts#no-such-heading', kind: 'no-anchor'},
      {file: 'basics/sdk.md', line: 5, url: '/nowhere', kind: 'no-page'},
      // Absolute URLs count in code too: `doc_url` examples are code.
      {file: 'basics/sdk.md', line: 8, url: `${SITE_URL}/errors#in_code`, kind: 'no-page'},
    ]);
  });

  test('HTML: URLs in attributes and in highlighted code are found; ids in scripts or text are not anchors', async () => {
    const problems = await check({
      ...GOOD_BUILD,
      'basics/sdk.html': page(
        '/basics/sdk',
        `${codeLine(`${SITE_URL}/errors#insufficient_balance`)}<p>id=fake <a href=${SITE_URL}/basics#fake>x</a></p>` +
          `<script>document.write('<b id=scripted></b>')</script><a href="${SITE_URL}/basics#scripted">y</a>`,
      ),
      '404.html': page('/404.html', '<p>Not found</p>'),
    });
    expect(formatProblems(problems)).toBe(
      [
        `- basics/sdk.html: ${SITE_URL}/basics#fake — no such anchor #fake on /basics (basics/index.html)`,
        `- basics/sdk.html: ${SITE_URL}/basics#scripted — no such anchor #scripted on /basics (basics/index.html)`,
        `- basics/sdk.html: ${SITE_URL}/errors#insufficient_balance — no such page /errors`,
      ].join('\n'),
    );
  });

  test('checks only the files selected, resolving pages and anchors over the whole build', async () => {
    const build = {
      ...GOOD_BUILD,
      'openapi.yaml': `a: ${SITE_URL}/getting-started/main-concepts#insufficient_balance\nb: ${SITE_URL}/postman/env.json\nc: ${SITE_URL}/basics#gone\n`,
      'postman/env.json': `"${SITE_URL}/errors"\n`,
      'basics/sdk.html': page('/basics/sdk', `<a href=${SITE_URL}/errors>x</a>`),
    };
    const openapiOnly = {files: (file: string) => file === 'openapi.yaml'};
    expect(formatProblems(await check(build, openapiOnly))).toBe(
      `- openapi.yaml:3: ${SITE_URL}/basics#gone — no such anchor #gone on /basics (basics/index.html)`,
    );
    // Files another postBuild is still writing count as served when named.
    const {'postman/env.json': _env, ...withoutEnv} = build;
    const urls = async (alsoServed: string[] = []) =>
      (await check(withoutEnv, {...openapiOnly, alsoServed})).map(({url}) => url);
    expect(await urls()).toEqual([`${SITE_URL}/postman/env.json`, `${SITE_URL}/basics#gone`]);
    expect(await urls(['postman/env.json'])).toEqual([`${SITE_URL}/basics#gone`]);
  });

  test('assertSiteUrlsResolve passes on a good build and throws naming the source, files, lines and URLs', async () => {
    const buildDir = await buildOf({...GOOD_BUILD, 'postman/env.json': `{\n  "doc": "${SITE_URL}/errors"\n}\n`});
    const options = {source: 'api-reference', buildDir, siteUrl: SITE_URL};
    await assertSiteUrlsResolve({...options, files: (file) => file === 'openapi.yaml'});
    await expect(assertSiteUrlsResolve(options)).rejects.toHaveProperty(
      'message',
      `[api-reference] 1 URL of ${SITE_URL} in the built files point at no page or anchor of the build (plugins/docs-urls):\n` +
        `- ${path.relative(process.cwd(), path.join(buildDir, 'postman/env.json'))}:2: ${SITE_URL}/errors — no such page /errors`,
    );
  });
});

test('docs-urls plugin: checks the HTML pages only, and fails naming the page and URL', async () => {
  const context = {siteDir: '/site', baseUrl: '/', siteConfig: {url: SITE_URL}} as unknown as LoadContext;
  const postBuild = async (outDir: string): Promise<void> => pluginDocsUrls(context).postBuild!({outDir} as never);
  // The other files are their writers' to check, in their own postBuild.
  const outDir = await buildOf({...GOOD_BUILD, 'openapi.yaml': `doc_url: ${SITE_URL}/errors\n`});
  await postBuild(outDir);
  const broken = `${SITE_URL}/getting-started/main-concepts#insufficient_balanse`;
  await writeFile(path.join(outDir, 'basics/sdk.html'), page('/basics/sdk', codeLine(broken)));
  const message = await postBuild(outDir).catch((caught: Error) => caught.message);
  expect(message).toContain(`[${PLUGIN_NAME}] 1 URL of ${SITE_URL} in the built files point at no page or anchor`);
  expect(message).toContain(
    `basics/sdk.html: ${broken} — no such anchor #insufficient_balanse on /getting-started/main-concepts`,
  );
  expect(message).not.toContain('openapi.yaml');
});
