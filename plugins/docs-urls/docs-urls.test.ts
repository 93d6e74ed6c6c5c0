import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import type {LoadContext} from '@docusaurus/types';

import {
  assertSiteUrlsResolve,
  checkBuildUrls,
  formatProblems,
  resolveSitePath,
  type CheckOptions,
} from '../../lib/site-urls';
import pluginDocsUrls, {PLUGIN_NAME} from './index';

const SITE_URL = 'https://docs.example.com';

/** A page as Docusaurus minifies it: unquoted attributes, a highlighted code block, a canonical link. */
function page(sitePath: string, body: string): string {
  return (
    `<!doctype html><html lang=en><head><link data-rh=true rel=canonical href=${SITE_URL}${sitePath}>` +
    `<meta property=og:url content="${SITE_URL}${sitePath}"></head><body><main>${body}</main></body></html>`
  );
}

/** One line of a Prism JSON code block, the string split into spans as the highlighter may do. */
function codeLine(url: string): string {
  const [head, tail] = [url.slice(0, 30), url.slice(30)];
  return (
    `<pre><code><span class=token-line><span class="token property">"doc_url"</span><span class="token operator">:</span>` +
    `<span class="token string">"${head}</span><span class="token string">${tail}"</span><br></span></code></pre>`
  );
}

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
    '',
    `URL: ${SITE_URL}/getting-started/main-concepts`,
    '',
    'See [the intro](/#intro) and [errors][e].',
    '',
    '[e]: /getting-started/main-concepts#errors',
    '',
    '```markdown',
    '[in a code block](/not-checked)',
    '```',
    '',
    'Inline `[code](/not-checked-either)` too; other sites: https://docs.example.community/x https://api.example.com/v1.',
    '',
  ].join('\n'),
  // Not checked: bundles, the search index, dot-files.
  'assets/js/main.js': `"${SITE_URL}/gone"`,
  'search-index-abc.json': `["${SITE_URL}/gone"]`,
  '.nginx/x.json': `"${SITE_URL}/gone"`,
};

async function writeBuild(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docs-urls-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), {recursive: true});
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

async function check(files: Record<string, string>, options: Pick<CheckOptions, 'files' | 'alsoServed'> = {}) {
  const dir = await writeBuild(files);
  try {
    return await checkBuildUrls({buildDir: dir, siteUrl: SITE_URL, ...options});
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
}

test.describe('docs-urls check', () => {
  test('a build whose site URLs all resolve has no problems', async () => {
    expect(await check(GOOD_BUILD)).toEqual([]);
  });

  test('resolves site paths as the web server does', () => {
    const served = new Set(['index.html', 'a.html', 'b/index.html', 'openapi.yaml', 'img/x.png']);
    expect(resolveSitePath('/', served)).toBe('index.html');
    expect(resolveSitePath('/a', served)).toBe('a.html');
    expect(resolveSitePath('/a.html', served)).toBe('a.html');
    expect(resolveSitePath('/b', served)).toBe('b/index.html');
    expect(resolveSitePath('/b/', served)).toBe('b/index.html');
    expect(resolveSitePath('/openapi.yaml', served)).toBe('openapi.yaml');
    expect(resolveSitePath('/img/x.png', served)).toBe('img/x.png');
    expect(resolveSitePath('/c', served)).toBeUndefined();
    expect(resolveSitePath('/%E0%A4%A', served)).toBeUndefined();
    expect(resolveSitePath('/a', served, '/docs/')).toBeUndefined();
    expect(resolveSitePath('/docs/a', new Set(['a.html']), '/docs/')).toBe('a.html');
  });

  test('a missing page (here in JSON) or anchor (here in YAML) is reported with the file and line', async () => {
    const problems = await check({
      ...GOOD_BUILD,
      'openapi.yaml': `${GOOD_BUILD['openapi.yaml']}  other: ${SITE_URL}/getting-started/main-concepts#insufficient_balanc\n`,
      'postman/env.json': `{\n  "values": [\n    {"key": "docs", "value": "${SITE_URL}/errors#insufficient_balance"}\n  ]\n}\n`,
    });
    expect(problems).toEqual([
      {
        file: 'openapi.yaml',
        line: 5,
        url: `${SITE_URL}/getting-started/main-concepts#insufficient_balanc`,
        kind: 'no-anchor',
        message:
          'no such anchor #insufficient_balanc on /getting-started/main-concepts (getting-started/main-concepts.html)',
      },
      {
        file: 'postman/env.json',
        line: 3,
        url: `${SITE_URL}/errors#insufficient_balance`,
        kind: 'no-page',
        message: 'no such page /errors',
      },
    ]);
  });

  test('absolute and site-relative URLs in Markdown are reported, once per file, outside code only', async () => {
    const problems = await check({
      ...GOOD_BUILD,
      'basics/sdk.md': [
        '# SDK',
        '',
        `Read ${SITE_URL}/basics/sdk-v2 or [this](${SITE_URL}/basics/sdk-v2).`,
        '',
        'And [that](/getting-started/main-concepts#no-such-heading "title"), <a href="/nowhere">here</a>.',
        '',
        '```json',
        `{"doc_url": "${SITE_URL}/errors#in_code"}`,
        '```',
        '',
      ].join('\n'),
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
    const problems = await check(build, {files: (file) => file === 'openapi.yaml'});
    expect(formatProblems(problems)).toBe(
      `- openapi.yaml:3: ${SITE_URL}/basics#gone — no such anchor #gone on /basics (basics/index.html)`,
    );
    // Files another postBuild is still writing count as served when named.
    const withoutEnv = Object.fromEntries(Object.entries(build).filter(([file]) => file !== 'postman/env.json'));
    expect((await check(withoutEnv, {files: (file) => file === 'openapi.yaml'})).map(({url}) => url)).toEqual([
      `${SITE_URL}/postman/env.json`,
      `${SITE_URL}/basics#gone`,
    ]);
    expect(
      (await check(withoutEnv, {files: (file) => file === 'openapi.yaml', alsoServed: ['postman/env.json']})).map(
        ({url}) => url,
      ),
    ).toEqual([`${SITE_URL}/basics#gone`]);
  });

  test('assertSiteUrlsResolve passes on a good build and throws naming the source, files, lines and URLs', async () => {
    const buildDir = await writeBuild({...GOOD_BUILD, 'postman/env.json': `{\n  "doc": "${SITE_URL}/errors"\n}\n`});
    try {
      const options = {source: 'api-reference', buildDir, siteUrl: SITE_URL};
      await assertSiteUrlsResolve({...options, files: (file) => file === 'openapi.yaml'});
      const error = await assertSiteUrlsResolve(options).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error?.message).toBe(
        `[api-reference] 1 URL of ${SITE_URL} in the built files point at no page or anchor of the build (plugins/docs-urls):\n` +
          `- ${path.relative(process.cwd(), path.join(buildDir, 'postman/env.json'))}:2: ${SITE_URL}/errors — no such page /errors`,
      );
    } finally {
      await rm(buildDir, {recursive: true, force: true});
    }
  });
});

test.describe('docs-urls plugin', () => {
  const context = {siteDir: '/site', baseUrl: '/', siteConfig: {url: SITE_URL}} as unknown as LoadContext;
  const postBuild = async (outDir: string): Promise<void> => pluginDocsUrls(context).postBuild!({outDir} as never);

  test('checks the HTML pages only, and fails naming the page and URL', async () => {
    // The other files are their writers' to check, in their own postBuild.
    const outDir = await writeBuild({...GOOD_BUILD, 'openapi.yaml': `doc_url: ${SITE_URL}/errors\n`});
    try {
      await postBuild(outDir);
      await writeFile(
        path.join(outDir, 'basics/sdk.html'),
        page('/basics/sdk', codeLine(`${SITE_URL}/getting-started/main-concepts#insufficient_balanse`)),
      );
      const error = await postBuild(outDir).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error?.message).toContain(
        `[${PLUGIN_NAME}] 1 URL of ${SITE_URL} in the built files point at no page or anchor`,
      );
      expect(error?.message).toContain(
        `basics/sdk.html: ${SITE_URL}/getting-started/main-concepts#insufficient_balanse — no such anchor #insufficient_balanse on /getting-started/main-concepts`,
      );
      expect(error?.message).not.toContain('openapi.yaml');
    } finally {
      await rm(outDir, {recursive: true, force: true});
    }
  });
});
