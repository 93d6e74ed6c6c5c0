import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

import mdxChecks, {type Options as MdxChecksOptions} from './plugins/remark/mdx-checks';
import tableNames from './plugins/remark/table-names';
import codeHighlight from './plugins/remark/code-highlight';
import type {HighlightOptions} from './lib/highlight';
import {searchOptions} from './lib/search-options';
import {vsDarkAccessible} from './src/code-theme/vsDarkAccessible';
import {ANALYTICS, ANNOUNCEMENT, BRAND, COPYRIGHT, EXTERNAL_LINKS, LOCALE, MCP, SITE} from './src/constants/site';
import {SIDEBAR_ID} from './src/constants/docs';
import type {Options as PageViewsOptions} from './plugins/page-views/options';
import type {Options as LlmsTxtOptions} from './plugins/llms-txt/options';
import type {Options as DocsUrlsOptions} from './plugins/docs-urls';
import type {Options as ApiReferenceOptions} from './plugins/api-reference/options';

// Builds the test pages (src/test-pages/: a crash, the design system's specimen) only when asked: the e2e suite
// sets it, production never does.
const withTestPages = process.env.DOCS_CRASH_TEST === 'true';

// The code-fence languages of docs/: highlighted at build time (plugins/remark/code-highlight), any other fails the build.
const PRISM_LANGUAGES = ['bash', 'http', 'javascript', 'json', 'markup', 'python', 'typescript'];

// DOCS_FASTER=false builds with webpack instead of Rspack (npm run bench:build compares them).
const withFaster = process.env.DOCS_FASTER !== 'false';

// Code is highlighted into static HTML at build time, so no grammar ships to the browser: the fences while
// pages compile, the blocks components render from the contract's generated data (plugins/api-reference).
const highlightOptions = {languages: PRISM_LANGUAGES, theme: vsDarkAccessible} satisfies HighlightOptions;
const highlightCode = [codeHighlight, highlightOptions] as const;

// The code theme for both colour modes; the browser needs only its plain colours.
const codeBlockTheme = {plain: vsDarkAccessible.plain, styles: []};

const presetOptions = {
  docs: {
    // The docs are the whole site: `/` is the Introduction doc, no landing page.
    routeBasePath: '/',
    sidebarPath: './sidebars.ts',
    versions: {current: {label: 'Next'}},
    showLastUpdateTime: false,
    // Fails the build, naming file and line, on an unknown constant, code-fence language or admonition.
    beforeDefaultRemarkPlugins: [[mdxChecks, {languages: PRISM_LANGUAGES} satisfies MdxChecksOptions]],
    remarkPlugins: [tableNames],
    rehypePlugins: [highlightCode],
  },
  blog: false,
  pages: {rehypePlugins: [highlightCode]},
  theme: {customCss: './src/css/custom.css'},
  sitemap: {
    changefreq: 'weekly',
    priority: 0.5,
    ignorePatterns: ['/crash-test', '/design-specimen', '/search'],
    filename: 'sitemap.xml',
  },
  // The diagrams are hand-written and minimal, so no SVGO pass; settings here spare a .svgrrc search per SVG.
  // Why: BENCHMARKS.md, "Build".
  svgr: {svgrConfig: {runtimeConfig: false, svgo: false}},
} satisfies Preset.Options;

const themeConfig = {
  image: 'img/social-card.png',
  metadata: [{name: 'twitter:card', content: 'summary_large_image'}],
  colorMode: {
    defaultMode: 'light',
    disableSwitch: false,
    respectPrefersColorScheme: false,
  },
  announcementBar: ANNOUNCEMENT.enabled
    ? {
        id: ANNOUNCEMENT.id,
        content: ANNOUNCEMENT.content,
        isCloseable: ANNOUNCEMENT.isCloseable,
        backgroundColor: ANNOUNCEMENT.backgroundColor,
        textColor: ANNOUNCEMENT.textColor,
      }
    : undefined,
  navbar: {
    title: BRAND,
    hideOnScroll: true,
    logo: {alt: `${BRAND} logo`, src: 'img/logo.svg', width: 32, height: 32},
    items: [
      ...Object.values(EXTERNAL_LINKS).map((link) => ({
        label: link.label,
        href: link.href,
        position: 'left' as const,
      })),
      {type: 'localeDropdown', position: 'right'},
      {type: 'search', position: 'right'},
    ],
  },
  footer: {style: 'dark', copyright: COPYRIGHT},
  docs: {sidebar: {hideable: false, autoCollapseCategories: false}},
  tableOfContents: {minHeadingLevel: 2, maxHeadingLevel: 3},
  prism: {
    // Only the plain colours reach the browser (the block's CSS variables); token colours are classes in custom.css.
    theme: codeBlockTheme,
    darkTheme: codeBlockTheme,
    // None: the browser has no Prism (plugins/bundle); fences are highlighted with PRISM_LANGUAGES at build time.
    additionalLanguages: [],
  },
} satisfies Preset.ThemeConfig;

const config: Config = {
  future: {experimental_faster: withFaster},
  title: SITE.title,
  tagline: SITE.tagline,
  favicon: 'img/favicon.svg',
  url: SITE.url,
  baseUrl: SITE.baseUrl,
  // Canonical paths have no trailing slash and no `.html` (spec §2).
  trailingSlash: false,
  onBrokenLinks: 'throw',
  onBrokenMarkdownLinks: 'throw',
  onBrokenAnchors: 'throw',
  onDuplicateRoutes: 'throw',
  i18n: {
    defaultLocale: LOCALE.code,
    locales: [LOCALE.code],
    localeConfigs: {
      [LOCALE.code]: {label: LOCALE.label, direction: LOCALE.direction, htmlLang: LOCALE.htmlLang},
    },
  },
  presets: [['classic', presetOptions]],
  clientModules: ['./src/client/chunk-load-failure.ts'],
  plugins: [
    [
      './plugins/api-reference/index.ts',
      {source: 'api/openapi.yaml', highlight: highlightOptions} satisfies ApiReferenceOptions,
    ],
    ['./plugins/docs-urls/index.ts', {alsoServed: [MCP.path]} satisfies DocsUrlsOptions],
    [
      './plugins/llms-txt/index.ts',
      {summary: SITE.description, sidebarId: SIDEBAR_ID, mcpPath: MCP.path} satisfies LlmsTxtOptions,
    ],
    ['./plugins/page-views/index.ts', {...ANALYTICS} satisfies PageViewsOptions],
    ['./plugins/csp/index.ts', {collectorUrl: ANALYTICS.collectorUrl}],
    ['./plugins/search/index.ts', searchOptions],
    ['./plugins/bundle/index.ts', {}],
    ...(withTestPages
      ? [
          [
            'content-pages',
            {id: 'test-pages', path: 'src/test-pages', routeBasePath: '/', rehypePlugins: [highlightCode]},
          ] as [string, object],
        ]
      : []),
  ],
  themeConfig,
};

export default config;
