import {execFile} from 'node:child_process';
import {cp, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {test, expect} from '@playwright/test';

import {parse as parseYaml} from 'yaml';

import config from '../../docusaurus.config';
import mdxChecks, {DEFAULT_ADMONITIONS, type Options} from './mdx-checks';

const ROOT = path.resolve(__dirname, '../..');
const PAGE = path.join(ROOT, 'docs/test/page.mdx');

/** The options docusaurus.config.ts gives the plugin (docs `beforeDefaultRemarkPlugins`). */
function configuredOptions(): Options {
  const [, {docs}] = config.presets![0] as [string, {docs: {beforeDefaultRemarkPlugins?: unknown[]}}];
  const entry = docs.beforeDefaultRemarkPlugins?.find((plugin) => Array.isArray(plugin) && plugin[0] === mdxChecks);
  if (!entry) throw new Error('mdx-checks is not a docs beforeDefaultRemarkPlugins entry of docusaurus.config.ts');
  return (entry as [unknown, Options])[1];
}

/** Parses and checks a page as the MDX loader does: Docusaurus's preprocessing, front matter, MDX, directives. */
async function check(source: string, filePath = PAGE): Promise<void> {
  const parsers = ['remark-parse', 'remark-frontmatter', 'remark-mdx', 'remark-directive'];
  const [utils, {unified}, ...plugins] = await Promise.all(
    ['@docusaurus/utils', 'unified', ...parsers].map((name) => import(name)),
  );
  const markdown = utils.escapeMarkdownHeadingIds(utils.unwrapMdxCodeBlocks(source));
  const value = utils.admonitionTitleToDirectiveLabel(markdown, DEFAULT_ADMONITIONS);
  const processor = unified().use([
    ...plugins.map((plugin) => plugin.default),
    [mdxChecks, {...configuredOptions(), siteDir: ROOT}],
  ]);
  // The loader gives each page its parsed front matter; snippets without a front matter block are checked without.
  const block = /^---\n([\s\S]*?)\n---/.exec(source)?.[1];
  const data = block === undefined ? {} : {frontMatter: (parseYaml(block) ?? {}) as Record<string, unknown>};
  await processor.run(processor.parse(value), {path: filePath, value, data});
}

const IMPORTS = `---
title: Test
description: A test page.
---
import Tabs from '@theme/Tabs';
import {LIMITS, LIFETIMES, SAMPLES} from '@site/src/constants/api';
import {ERROR_CODES} from '@site/src/constants/behaviour';
import * as site from '@site/src/constants/site';

`;

/** The line of the page where the body after IMPORTS starts, minus one. */
const BODY_OFFSET = IMPORTS.split('\n').length - 1;

/** The `file:line:column: …` problems the check of this page reports, none if it passes. */
const problemsOf = async (source: string, filePath = PAGE) =>
  (await check(source, filePath).catch((thrown: Error) => thrown.message.split('\n'))) ?? [];

/** Expects the page to fail with exactly these `line:column: …` problems, lines counted from the body's first. */
async function expectProblems(body: string, problems: string[]): Promise<void> {
  const onPage = (problem: string) => problem.replace(/^\d+/, (line) => `docs/test/page.mdx:${+line + BODY_OFFSET}`);
  expect(await problemsOf(IMPORTS + body)).toEqual(problems.map(onPage));
}

test.describe('mdx-checks remark plugin', () => {
  test('a correct page passes: constants in text, JSX, templates and calls; known languages and admonitions', async () => {
    const blocks = [
      '## Heading {#custom-id}',
      `{SAMPLES.iccid} and <code>{LIMITS.tokenLifetimeSeconds}</code>, {LIFETIMES.webhookRetrySchedule.join(', ')} {site.BRAND}`,
      '<a href={`${site.SITE.url}/x`} title={LIMITS["tokenLifetimeSeconds"]}>link</a>',
      '{ERROR_CODES.map((LIMITS) => <p key={LIMITS.code}>{LIMITS.nope}</p>)} {Math.max(1, 2)} {JSON.stringify({a: 1})}',
      '```bash\necho ok\n```',
      '```\nno language\n```',
      '```ts title="x.ts"\nconst x = 1;\n```',
      '```text\nplain\n```',
      ':::note Legacy title\nA note.\n:::',
      ':::tip[Tip]\nA tip.\n:::',
      '<Tabs>x</Tabs>',
    ];
    await check(`${IMPORTS}${blocks.join('\n\n')}\n`);
  });

  test('a property that does not exist, wherever it is read; an imported name the module does not export; a constant never imported', async () => {
    await expectProblems(
      [
        'The ICCID {SAMPLES.sandboxIccidd} is',
        '<code>{LIMITS.nope}</code> <a href={`${site.SITE.urll}/x`}>x</a>',
        "{LIFETIMES.webhookRetrySchedul.join(', ')} {LIMITS['tokenLifetimeSecond']} {SAMPLES.iccid.nope}",
      ].join('\n'),
      [
        '1:20: SAMPLES has no property "sandboxIccidd" (src/constants/api.ts)',
        '2:15: LIMITS has no property "nope" (src/constants/api.ts)',
        '2:50: site.SITE has no property "urll" (src/constants/site.ts)',
        '3:12: LIFETIMES has no property "webhookRetrySchedul" (src/constants/api.ts)',
        '3:52: LIMITS has no property "tokenLifetimeSecond" (src/constants/api.ts)',
        '3:91: SAMPLES.iccid has no property "nope" (src/constants/api.ts)',
      ],
    );
    expect(
      await problemsOf("import {NOPE, SAMPLES} from '@site/src/constants/api';\n\n{SAMPLES.iccid} {SAMPLEZ.iccid}\n"),
    ).toEqual([
      'docs/test/page.mdx:1:9: src/constants/api.ts has no export "NOPE"',
      'docs/test/page.mdx:3:18: SAMPLEZ is not defined on this page: import it from @site/src/constants/… or fix its spelling',
    ]);
  });

  test('an unregistered code-fence language', async () => {
    await expectProblems('```ruby\nputs 1\n```\n', [
      '1:1: code block language "ruby" is not registered with Prism, so it is not highlighted; use one of ' +
        'bash (sh, shell), markup (html, xml, svg, mathml, ssml, atom, rss), clike, javascript (js), json (webmanifest), http, ' +
        'python (py), typescript (ts), or add it to PRISM_LANGUAGES in docusaurus.config.ts',
    ]);
  });

  test("an unknown admonition, also with a title; the known ones are Docusaurus's own keywords", async () => {
    const {keywords} = require('@docusaurus/mdx-loader/lib/remark/admonitions').DefaultAdmonitionOptions;
    expect([...DEFAULT_ADMONITIONS].sort()).toEqual([...keywords].sort());
    await expectProblems(':::warnin\nCareful.\n:::\n\n:::dangr Title\nx\n:::\n', [
      `1:1: unknown admonition ":::warnin"; Docusaurus knows ${DEFAULT_ADMONITIONS.join(', ')}`,
      `5:1: unknown admonition ":::dangr"; Docusaurus knows ${DEFAULT_ADMONITIONS.join(', ')}`,
    ]);
  });

  test('a constant inside backticks, which MDX prints as written', async () => {
    await expectProblems('Send `X-RateLimit-Limit: {LIMITS.tokenRequestsPerMinute}` and `{{accessToken}}`.\n', [
      '1:6: {LIMITS.tokenRequestsPerMinute} inside backticks is printed as written, not replaced; write <code>…{LIMITS.tokenRequestsPerMinute}…</code>',
    ]);
  });

  test('a link to a doc page or heading that does not exist, in either style', async () => {
    await expectProblems(
      '[SDK](../basics/sdk.mdx#error-handling) and [it](/basics/sdk) are fine.\n\n' +
        '[a](../basics/skd.mdx) [b](/basics/skd#errors) [c](/basics/sdk#no-such-heading)\n\n' +
        'As JSX: <a href="/basics/sdk">fine</a> and <a href="/basics/no-such-page">not</a>.\n\n' +
        '<Link to="/basics/nope">a</Link> <a href={"/computed"}>b</a> <a href="../basics/sdk.mdx">c</a>\n',
      [
        '3:1: link to "../basics/skd.mdx": no such file basics/skd.mdx in the docs',
        '3:24: link to "/basics/skd#errors": no doc page has the URL /basics/skd',
        '3:48: link to "/basics/sdk#no-such-heading": basics/sdk.mdx has no heading or id "#no-such-heading"',
        '5:44: link to "/basics/no-such-page": no doc page has the URL /basics/no-such-page',
        '7:1: link to "/basics/nope": no doc page has the URL /basics/nope',
        '7:62: link to "../basics/sdk.mdx" in JSX: a file path is turned into the page\'s URL only in a Markdown link; write [text](../basics/sdk.mdx)',
      ],
    );
  });

  test('a page without title or description in its front matter fails, naming the file', async () => {
    expect(await problemsOf('---\nsidebar_position: 2\n---\n\nText.\n')).toEqual([
      'docs/test/page.mdx:1:1: the front matter has no "title": it is the page title, its <h1> and its sidebar label',
      'docs/test/page.mdx:1:1: the front matter has no "description": it is the page summary in search results, link previews and llms.txt',
    ]);
    expect(await problemsOf('---\ntitle: T\ndescription: D\n---\n\nText.\n')).toEqual([]);
    expect(await problemsOf('Text of a partial.\n', path.join(ROOT, 'docs/test/_partial.mdx'))).toEqual([]);
  });

  test('a mistyped constant, a page without a description and a broken link fail `docusaurus build`, naming file, line and problem', async () => {
    test.setTimeout(600_000);
    const siteDir = await mkdtemp(path.join(tmpdir(), 'mdx-checks-'));
    try {
      const skip = new Set(['node_modules', 'build', '.git', 'test-results', 'playwright-report']);
      await cp(ROOT, siteDir, {
        recursive: true,
        filter: (source) => !skip.has(path.basename(source)) && !path.basename(source).startsWith('.docusaurus'),
      });
      await symlink(path.join(ROOT, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');
      /** Rewrites a doc of the copy; returns its lines as they were. */
      const edit = async (doc: string, change: (text: string) => string) => {
        const text = await readFile(path.join(siteDir, doc), 'utf8');
        await writeFile(path.join(siteDir, doc), change(text));
        return text.split('\n');
      };
      const constant = '{LIMITS.sandboxRequestsPerMinute}';
      const lines = await edit('docs/getting-started/quick-start.mdx', (text) =>
        text.replace(constant, '{LIMITS.sandboxRequestPerMinute}'),
      );
      const line = lines.findIndex((text) => text.includes(constant));
      expect(line).toBeGreaterThan(0);
      const column = lines[line]!.indexOf(constant) + '{LIMITS.'.length + 1;
      // A broken link in README's URL style, which Docusaurus itself reports only by built file.
      const billing = await edit('docs/account-management/billing.mdx', (text) =>
        text.replace(/^.*\]\(\.\.\/getting-started\//m, '[Broken](/getting-started/no-such-page) $&'),
      );
      const linkLine = billing.findIndex((text) => text.includes('](../getting-started/'));
      expect(linkLine).toBeGreaterThan(0);
      await edit('docs/basics/iframe.mdx', (text) => text.replace(/^description: .*\n/m, ''));

      // execFile rejects, with the output, when the build fails.
      const build = await promisify(execFile)('npx', ['docusaurus', 'build'], {
        cwd: siteDir,
        env: {...process.env, NO_UPDATE_NOTIFIER: '1', FORCE_COLOR: '0'},
        maxBuffer: 64 << 20,
      }).catch((error: Error & {stdout: string; stderr: string}) => error);
      expect(build).toBeInstanceOf(Error);
      const output = build.stdout + build.stderr;
      expect(output).toContain(
        `docs/getting-started/quick-start.mdx:${line + 1}:${column}: LIMITS has no property "sandboxRequestPerMinute" (src/constants/api.ts)`,
      );
      expect(output).toContain('docs/basics/iframe.mdx:1:1: the front matter has no "description"');
      expect(output).toContain(
        `docs/account-management/billing.mdx:${linkLine + 1}:1: link to "/getting-started/no-such-page": no doc page has the URL /getting-started/no-such-page`,
      );
    } finally {
      await rm(siteDir, {recursive: true, force: true});
    }
  });
});
