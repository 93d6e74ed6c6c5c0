// The one list of files that reach into Docusaurus or dependency internals: an upgrade fails here naming them.
import {readFileSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

const ROOT = path.resolve(__dirname, '..');

const CHECKED_AGAINST = '3.7.0';

const TOUCHES_INTERNALS = [
  // Ejected theme components (not wraps).
  'src/theme/Tabs/index.tsx',
  'src/theme/CodeBlock/index.tsx',
  // theme-common's useCodeWordWrap, copied and changed.
  'src/theme/CodeBlock/useWordWrapWhenSeen.ts',
  'src/theme/prism-include-languages/index.ts',
  'src/theme/Tabs/styles.module.css',
  // Wraps: each renders the original with its props and relies on its markup or hooks.
  'src/theme/AnnouncementBar/index.tsx',
  'src/theme/DocItem/Content/index.tsx',
  'src/theme/DocItem/Footer/index.tsx',
  'src/theme/DocSidebarItem/Category/index.tsx',
  'src/theme/ErrorPageContent/index.tsx',
  'src/theme/ErrorPageContent/styles.module.css',
  'src/theme/MDXComponents/index.tsx',
  'src/theme/SearchPage/index.tsx',
  'src/theme/SearchBar/searchBox.ts',
  'src/theme/SearchBar/searchSignals.ts',
  // Bundler set-up: aliases, split chunks, the dev server's middlewares.
  'plugins/api-reference/index.ts',
  'plugins/bundle/index.ts',
  'plugins/bundle/self-contained-workers.ts',
  'plugins/search/index.ts',
  'plugins/search/ask-ai-off.ts',
  'plugins/search/highlight-guard.ts',
  // Rewrites or replaces a dependency's built file.
  'plugins/bundle/no-client-prism.ts',
  'plugins/bundle/prefetch-once.ts',
  'plugins/bundle/prefetch-once-client.ts',
  'plugins/remark/code-highlight.ts',
  'src/theme/CodeBlock/styles.module.css',
  'plugins/search/code-terms.ts',
  'plugins/search/worker.ts',
  'lib/search/sharded-index.ts',
  'plugins/search/search-local.d.ts',
  'src/theme/SearchBar/guardedMark.ts',
  // The MCP server runs the search plugin's own query code with its generated constants replaced.
  'mcp/docs.ts',
  'lib/search/generated-constants.ts',
  // Read or style the theme's markup by its class names (code blocks, twins, search box, tabs, admonitions).
  'src/css/custom.css',
  'lib/highlight.ts',
  'plugins/llms-txt/html-to-markdown.ts',
  'plugins/llms-txt/index.ts',
  'lib/site-urls.ts',
  'plugins/docs-urls/index.ts',
  'plugins/bundle/css-prune.ts',
  'plugins/csp/index.ts',
  'plugins/remark/mdx-checks.ts',
  'src/theme/SearchBar/index.tsx',
  'src/theme/SearchBar/styles.module.css',
  // Takes the URL tags the theme's SiteMetadata gives every route out of the not-found page.
  'plugins/bundle/not-found-head.ts',
  // Undoes Infima's tables as their own block scrollers (no class name to find it by).
  'src/components/ScrollableTable/styles.module.css',
  // Ajv's draft 2020-12 entry point, `ajv/dist/2020` (documented by Ajv, not an internal file).
  'lib/contract/validator.ts',
];

// Touching internals: an `/internal` import, bundler set-up, a path inside a dependency, the theme's class names.
const INTERNALS = [
  /from '@docusaurus\/[\w-]+\/internal'/,
  /\bconfigureWebpack\b/,
  /'[@\w./-]+\/dist\//,
  /require\.resolve\(['`][^.]/,
  /['"`.\s](?:theme-(?!original|classic|common|search)[a-z][\w-]*|navbar__\w|menu__\w|tabs__\w|breadcrumbs__\w|footer__\w|table-of-contents|pagination-nav|admonition)/,
  // The built pages read back (twins, llms files, the MCP server, the link check, the CSP, CSS pruning).
  /\}\.html`|['"`]index\.html['"`]|endsWith\(['"`]\.html['"`]\)/,
];

const filesUnder = (dir: string, name: RegExp) =>
  readdirSync(path.join(ROOT, dir), {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && name.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

test.describe('upgrade guard', {tag: '@viewport-independent'}, () => {
  test('the installed Docusaurus theme is the version the internals were checked against', () => {
    const installed = (JSON.parse(read('node_modules/@docusaurus/theme-classic/package.json')) as {version: string})
      .version;
    expect(
      installed,
      `@docusaurus/theme-classic is ${installed}, but these files were checked against ${CHECKED_AGAINST}: ` +
        `compare each with the new theme, then update CHECKED_AGAINST:\n${TOUCHES_INTERNALS.join('\n')}`,
    ).toBe(CHECKED_AGAINST);
  });

  test('every file of a swizzled theme component, wrap or eject, and every file that imports internals, sets up the bundler, names a file inside a dependency or reads the built pages, is on the list', () => {
    const themeFiles = filesUnder('src/theme', /^(?!.*\.(?:test|spec)\.)[^.].*\.(?:[jt]sx?|css)$/);
    const touching = ['src', 'plugins', 'lib', 'mcp']
      .flatMap((dir) => filesUnder(dir, /^(?!.*\.(?:test|spec|d)\.tsx?$).*\.(?:tsx?|css)$/))
      .filter((file) => INTERNALS.some((pattern) => pattern.test(read(file))));
    const unlisted = (files: string[]) => files.filter((file) => !TOUCHES_INTERNALS.includes(file));
    expect(themeFiles.length, 'theme components found').toBeGreaterThan(0);
    expect(unlisted(themeFiles), 'swizzled theme components, missing from TOUCHES_INTERNALS').toEqual([]);
    expect(touching.length, 'files touching internals found').toBeGreaterThan(0);
    expect(unlisted(touching), 'touching internals, missing from TOUCHES_INTERNALS').toEqual([]);
    for (const file of TOUCHES_INTERNALS) {
      const stat = statSync(path.join(ROOT, file), {throwIfNoEntry: false});
      expect(stat?.isFile(), `${file} is listed but does not exist`).toBe(true);
    }
  });

  test('every override pins the version its dependency is pinned to, and every @docusaurus package is at one version', () => {
    type Pins = Record<string, string>;
    const manifest = JSON.parse(read('package.json')) as {dependencies: Pins; devDependencies: Pins; overrides: Pins};
    const pinned = {...manifest.dependencies, ...manifest.devDependencies};
    for (const [name, version] of Object.entries(pinned)) {
      expect(version, `${name} is pinned to an exact version`).toMatch(/^\d+\.\d+\.\d+$/);
    }
    for (const [name, version] of Object.entries(manifest.overrides)) {
      if (name in pinned) expect(version, `overrides.${name}`).toBe(pinned[name]);
    }
    // Docusaurus's ESLint rules get typescript-eslint's own utils: one version of its packages.
    expect(manifest.overrides['@typescript-eslint/utils'], 'overrides.@typescript-eslint/utils').toBe(
      pinned['typescript-eslint'],
    );
    const docusaurus = pinned['@docusaurus/core'];
    const offDocusaurus = Object.entries({...pinned, ...manifest.overrides}).filter(
      ([name, version]) => name.startsWith('@docusaurus/') && version !== docusaurus,
    );
    expect(offDocusaurus, `@docusaurus packages not at ${docusaurus}`).toEqual([]);
  });
});
