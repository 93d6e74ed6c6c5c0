import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';

import type {PluginOptions as SearchLocalOptions} from '@easyops-cn/docusaurus-search-local';

import mdxChecks, {type Options as MdxChecksOptions} from './plugins/mdx-checks';
import tableNames from './plugins/table-names';
import {vsDarkAccessible} from './src/code-theme/vsDarkAccessible';
import {ANALYTICS, ANNOUNCEMENT, BRAND, COPYRIGHT, EXTERNAL_LINKS, LOCALE, SEARCH, SITE} from './src/constants/site';
import {SIDEBAR_ID} from './src/constants/docs';
import type {Options as PageViewsOptions} from './plugins/page-views/options';
import type {Options as LlmsTxtOptions} from './plugins/llms-txt/options';

// Builds the crash-test page (src/crash-test/) only when asked: the e2e suite sets it, production never does.
const withCrashTestPage = process.env.DOCS_CRASH_TEST === 'true';

// The Prism grammars in main.js: exactly the code-fence languages of docs/ (plugins/lean-prism checks that).
const PRISM_LANGUAGES = ['bash', 'http', 'javascript', 'json', 'markup', 'python', 'typescript'];

// Docusaurus Faster (Rspack, SWC, Lightning CSS) is on; DOCS_FASTER=false builds with webpack/Babel/Terser (npm run bench:build compares them).
const withFaster = process.env.DOCS_FASTER !== 'false';

// Bundle tweaks: each keeps a byte budget (tests/budgets.json) that the stock build misses, and each
// states its measured figure at its top (BENCHMARKS.md). They reach into the bundler's set-up, so they
// are on the list to re-check when Docusaurus is upgraded (tests/upgrade-guard.spec.ts).
const bundleTweaks: [string, object][] = [
  // Logs, never throws, when the search plugin cannot highlight the matched words on a page; mark.js loads on first use.
  ['./plugins/search-highlight-guard/index.ts', {}],
  // Keeps the search plugin's unused "Ask AI" widget (its CSS, its chunk) out of the build while askAi is unset.
  ['./plugins/search-ask-ai-off/index.ts', {}],
  // Only PRISM_LANGUAGES are registered in main.js.
  ['./plugins/lean-prism/index.ts', {languages: PRISM_LANGUAGES}],
  // Prunes the stylesheet to the rules the built HTML and JS can use, under a new hashed name.
  ['./plugins/css-prune/index.ts', {}],
  // No vendor split out of Web Workers (the search worker): one file each.
  ['./plugins/self-contained-workers/index.ts', {}],
];

const presetOptions = {
  docs: {
    // The docs are the whole site: `/` is the Introduction doc, no landing page.
    routeBasePath: '/',
    sidebarPath: './sidebars.ts',
    versions: {current: {label: 'Next'}},
    showLastUpdateTime: false,
    // Fails start and build, naming file and line, on an imported constant or property that does not
    // exist, an unregistered code-fence language or an unknown admonition (plugins/mdx-checks).
    beforeDefaultRemarkPlugins: [[mdxChecks, {languages: PRISM_LANGUAGES} satisfies MdxChecksOptions]],
    // Names each Markdown table after its section: its scroll region is a landmark (plugins/table-names).
    remarkPlugins: [tableNames],
  },
  blog: false,
  pages: {},
  theme: {customCss: './src/css/custom.css'},
  sitemap: {
    changefreq: 'weekly',
    priority: 0.5,
    ignorePatterns: ['/crash-test', '/search'],
    filename: 'sitemap.xml',
  },
  // The diagrams (static/img/*-status.svg, imported by MDX) are hand-written and already minimal, so
  // no SVGO pass (~0.3 s of each build loading and running it); and SVGR takes its settings from here,
  // with no .svgrrc search (cosmiconfig) for each SVG on both the client and the server compile.
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
  // The stock footer: the notice from the constants module, no links.
  footer: {style: 'dark', copyright: COPYRIGHT},
  docs: {sidebar: {hideable: false, autoCollapseCategories: false}},
  tableOfContents: {minHeadingLevel: 2, maxHeadingLevel: 3},
  prism: {
    // vsDark in both modes, with its three sub-AA token colours fixed (see the module).
    theme: vsDarkAccessible,
    darkTheme: vsDarkAccessible,
    // None on top: plugins/lean-prism replaces prism-react-renderer's thirty bundled grammars with PRISM_LANGUAGES.
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
    // Fails the build on a URL of this site in a built page that names no page or anchor (plugins/docs-urls).
    ['./plugins/docs-urls/index.ts', {}],
    // Generates /openapi.yaml and the Postman collection and environments from api/openapi.yaml and the constants.
    ['./plugins/api-artifacts/index.ts', {source: 'api/openapi.yaml'}],
    // The SDK page's method table, rendered from the SDK declaration sdk/index.d.ts.
    ['./plugins/sdk-reference/index.ts', {}],
    // Page views for production builds only (plugins/page-views); DOCS_ANALYTICS=off switches it off.
    ['./plugins/page-views/index.ts', {...ANALYTICS} satisfies PageViewsOptions],
    // robots.txt naming the absolute sitemap URL (plugins/seo).
    ['./plugins/seo/index.ts', {}],
    // The Content-Security-Policy with this build's inline-script hashes, as build/.nginx/csp.conf (plugins/csp).
    ['./plugins/csp/index.ts', {collectorUrl: ANALYTICS.collectorUrl}],
    // /llms.txt, /llms-full.txt and a .md twin of every doc, written by postBuild (plugins/llms-txt).
    ['./plugins/llms-txt/index.ts', {summary: SITE.description, sidebarId: SIDEBAR_ID} satisfies LlmsTxtOptions],
    // Indexes the dotted names inside code (`orders.create`, `err.retryAfter`) as search terms (plugins/search-code-terms).
    ['./plugins/search-code-terms/index.ts', {}],
    // The search worker reads a query's words without the punctuation around them (`lifetime?`, `{{accessToken}}`), as the index has them (plugins/search-query-terms).
    ['./plugins/search-query-terms/index.ts', {}],
    ...bundleTweaks,
    ...(withCrashTestPage
      ? [['content-pages', {id: 'crash-test', path: 'src/crash-test', routeBasePath: '/'}] as [string, object]]
      : []),
  ],
  themes: [
    [
      '@easyops-cn/docusaurus-search-local',
      {
        indexDocs: true,
        indexBlog: false,
        indexPages: false,
        docsRouteBasePath: '/',
        // Content-hashed index file names: cacheable forever, never stale.
        hashed: 'filename',
        language: ['en'],
        highlightSearchTermsOnTargetPage: true,
        searchResultLimits: SEARCH.resultLimit,
        searchResultContextMaxLength: SEARCH.contextMaxLength,
        explicitSearchResultPath: true,
        // The SearchBar wrap owns Cmd/Ctrl+K and its hint: they must work while the box is loading.
        searchBarShortcut: false,
      } satisfies SearchLocalOptions,
    ],
  ],
  themeConfig,
};

export default config;
