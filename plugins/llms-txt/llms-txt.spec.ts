/**
 * Unit tests of the llms-txt plugin (Playwright project `plugins`; no browser, no build):
 * options, the off switch, twin paths, llms.txt rendering and the MDX → Markdown conversion.
 */
import path from 'node:path';

import {expect, test} from '@playwright/test';
import {normalizePluginOptions} from '@docusaurus/utils-validation';
import type {LoadContext} from '@docusaurus/types';

import {LIFETIMES, URLS} from '../../src/constants/api';
import type {ContractData} from '../api-artifacts/contract-data';
import {BRAND} from '../../src/constants/site';
import pluginLlmsTxt, {isSwitchedOff, renderLlmsTxt, twinPath} from './index';
import {mdxToMarkdown, type ConvertOptions} from './markdown';
import {DEFAULT_OPTIONS, validateOptions, type Options, type PluginOptions} from './options';

const ROOT = path.resolve(__dirname, '..', '..');

function validate(options: Options): PluginOptions {
  const normalize = normalizePluginOptions as unknown as (schema: unknown, value: unknown) => PluginOptions;
  return validateOptions({validate: (schema, value) => normalize(schema, value), options});
}

// A small contract: the component renderers take their rows from it, not from the real document.
const contract: ContractData = {
  scopes: [
    {scope: 'catalog:read', description: 'Read the `packages`.'},
    {scope: 'orders:write', description: 'Create orders.'},
  ],
  operationScopes: {},
  // No Postman component is rendered by these tests.
  postman: {} as ContractData['postman'],
};

const convertOptions: ConvertOptions = {
  sourcePath: path.join(ROOT, 'docs/getting-started/example.mdx'),
  pageUrl: 'https://docs.example.com/getting-started/example',
  siteRootUrl: 'https://docs.example.com/',
  resolveDocPermalink: (file) =>
    file === path.join(ROOT, 'docs/getting-started/authentication.mdx') ? '/getting-started/authentication' : undefined,
  siteDir: ROOT,
  staticDirs: [path.join(ROOT, 'static')],
  contract,
};

const convert = (mdx: string) => mdxToMarkdown(mdx, convertOptions);

test.describe('llms-txt options', () => {
  test('defaults, overrides and rejections', () => {
    expect(validate({})).toEqual({id: 'default', ...DEFAULT_OPTIONS});
    expect(validate({summary: 'One line.', sidebarId: 'other'})).toMatchObject({summary: 'One line.', sidebarId: 'other'});
    expect(() => validate({summary: 'two\n\nparagraphs'})).toThrow();
    expect(() => validate({enabled: 'yes'} as unknown as Options)).toThrow();
    expect(() => validate({colour: 'red'} as unknown as Options)).toThrow();
  });

  test('enabled: false and DOCS_LLMS=off leave the plugin out', () => {
    const options = validate({});
    expect(isSwitchedOff(options, {})).toBe(false);
    expect(isSwitchedOff(options, {DOCS_LLMS: 'off'})).toBe(true);
    expect(isSwitchedOff({enabled: false}, {})).toBe(true);
    expect(pluginLlmsTxt({} as LoadContext, {...options, enabled: false})).toBeNull();
  });

  test('twin paths: the page path plus .md, /index.md for /', () => {
    expect(twinPath('/')).toBe('/index.md');
    expect(twinPath('/getting-started/quick-start')).toBe('/getting-started/quick-start.md');
    expect(twinPath('/basics/')).toBe('/basics/index.md');
  });
});

test.describe('llms.txt rendering', () => {
  test('H1, blockquote, H2 sections of links to the twins with descriptions', () => {
    const text = renderLlmsTxt(
      {title: 'T', summary: 'S.', baseUrl: '/', url: (sitePath) => new URL(sitePath, 'https://x.test').href},
      [{label: 'Start', pages: [{title: 'Intro [1]', description: 'D.', permalink: '/', sourcePath: '/x.mdx'}]}],
    );
    expect(text).toBe(
      '# T\n\n> S.\n\nEvery page below is linked as Markdown. All pages in one file: [llms-full.txt](https://x.test/llms-full.txt).\n\n## Start\n\n- [Intro \\[1\\]](https://x.test/index.md): D.\n',
    );
  });
});

test.describe('MDX → Markdown', () => {
  test('imports go, constants are substituted in text, attributes and template literals', async () => {
    const markdown = await convert(
      [
        "import {BRAND} from '@site/src/constants/site';",
        "import {URLS, LIFETIMES} from '@site/src/constants/api';",
        '',
        'Use {BRAND} in the <a href={URLS.dashboard}>Dashboard</a>, mail <a href={`mailto:${URLS.supportEmail}`}>{URLS.supportEmail}</a>.',
        '',
        'Grace periods: {LIFETIMES.secretRollGracePeriods.join(\', \')}; id <code>{URLS.status}</code> {/* a comment */}',
      ].join('\n'),
    );
    expect(markdown).not.toMatch(/import|\{|<a|<code/);
    expect(markdown).toContain(`Use ${BRAND} in the [Dashboard](${URLS.dashboard}), mail [${URLS.supportEmail}](mailto:${URLS.supportEmail}).`);
    expect(markdown).toContain(`Grace periods: ${LIFETIMES.secretRollGracePeriods.join(', ')}; id \`${URLS.status}\``);
  });

  test('tabs become one heading per tab, one level under their section', async () => {
    const markdown = await convert(
      [
        "import Tabs from '@theme/Tabs';",
        "import TabItem from '@theme/TabItem';",
        '',
        '### Send it',
        '',
        '<Tabs groupId="language">',
        '<TabItem value="curl" label="cURL">',
        '',
        '```bash {2} title="send.sh"',
        'curl https://example.com',
        '# highlight-next-line',
        'echo done',
        '```',
        '',
        '</TabItem>',
        '<TabItem value="js">',
        '',
        'Text for **JS**.',
        '',
        '</TabItem>',
        '</Tabs>',
      ].join('\n'),
    );
    expect(markdown).toBe(
      '### Send it\n\n#### cURL\n\n```bash title="send.sh"\ncurl https://example.com\necho done\n```\n\n#### js\n\nText for **JS**.\n',
    );
  });

  test('admonitions become labelled blockquotes', async () => {
    const markdown = await convert(':::note\n\nKeep it **safe**.\n\n:::\n\n:::warning[Heads up]\n\nSecond.\n\n:::\n\n:::tip Old style title\n\nThird.\n\n:::');
    expect(markdown).toBe('> **Note:** Keep it **safe**.\n\n> **Heads up:** Second.\n\n> **Old style title:** Third.\n');
  });

  test('components render from the constants, SVG diagrams become images, links become absolute', async () => {
    const markdown = await convert(
      [
        "import {ScopeTable} from '@site/src/components/ApiTables';",
        "import Diagram from '@site/static/img/order-status.svg';",
        '',
        '## Scopes {#scopes}',
        '',
        '<ScopeTable />',
        '',
        '<div role="group">',
        '  <Diagram role="img" aria-label="Order states" style={{width: \'100%\'}} />',
        '</div>',
        '',
        'See [Authentication](./authentication.mdx#token) and [above](#scopes) and [the API](/openapi.yaml).',
      ].join('\n'),
    );
    expect(markdown).toContain('## Scopes\n');
    expect(markdown).toContain('| `catalog:read` | Read the `packages`. |');
    expect(markdown.match(/^\| `/gm)?.length).toBe(contract.scopes.length);
    expect(markdown).toContain('![Order states](https://docs.example.com/img/order-status.svg)');
    expect(markdown).toContain(
      'See [Authentication](https://docs.example.com/getting-started/authentication#token) and [above](https://docs.example.com/getting-started/example#scopes) and [the API](https://docs.example.com/openapi.yaml).',
    );
  });

  test('unknown components, modules and doc links fail loudly', async () => {
    await expect(convert('<Mystery />')).rejects.toThrow(/<Mystery> .* no Markdown rendering/);
    await expect(convert("import X from '@site/src/components/Nope';\n\n<X />")).rejects.toThrow(/no Markdown rendering/);
    await expect(convert('[gone](./nope.mdx)')).rejects.toThrow(/not a doc/);
    await expect(convert('{NOT_IMPORTED}')).rejects.toThrow(/cannot evaluate/);
  });
});
