/**
 * The one source of the product's brand, public URLs and site-wide texts.
 * docusaurus.config.ts, pages, components, plugins and tests read these;
 * nothing else spells the brand or these URLs out.
 */

/** The product name; the SDK class and npm scope are derived from it. */
export const BRAND = 'Acme Connect';

/** `Acme Connect` → `AcmeConnect` (the SDK's class name). */
export const SDK_CLASS = BRAND.replace(/[^A-Za-z0-9]/g, '');

/** `Acme Connect` → `@acme-connect` (the npm scope of the SDKs). */
export const NPM_SCOPE = `@${BRAND.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export const SITE = {
  title: `${BRAND} Documentation`,
  tagline: 'Connectivity that rocks your world',
  /** Canonical origin of this documentation site (sitemap, canonical and OG URLs). */
  url: 'https://docs.example.com',
  baseUrl: '/',
  copyrightYear: 2025,
  /** Fallback meta description for pages that have none of their own. */
  description: `Developer documentation for the ${BRAND} eSIM partner API, Node SDK, embeddable iframe widget and Postman collection.`,
} as const;

/**
 * Page-view counting (plugins/page-views). `DOCS_ANALYTICS=off` also switches it off for one build.
 * What is sent and how to proxy the collector: README.md, "Analytics".
 */
export const ANALYTICS = {
  /** `false` injects no script at all. */
  enabled: true,
  /** Plausible events API endpoint; a same-origin path that the web server proxies to the collector. */
  collectorUrl: '/api/event',
  /** The site id the collector counts under: the host of SITE.url. */
  domain: new URL(SITE.url).host,
  /** Count views on localhost / 127.0.0.1 too (never in production; local builds stay silent). */
  allowLocalhost: false,
} as const;

export const COPYRIGHT = `Copyright © ${SITE.copyrightYear} ${BRAND}`;

/** External destinations linked from the navbar (left side, in this order). */
export const EXTERNAL_LINKS = {
  website: {label: 'Website', href: 'https://www.example.com'},
  apiReference: {label: 'API Reference', href: 'https://api-reference.example.com'},
  support: {label: 'Support', href: 'https://help.example.com'},
} as const;

/**
 * The announcement bar. Its `id` is derived from its text, so editing the
 * message shows it again to readers who dismissed the previous one.
 */
const announcementHtml =
  'New in October 2025: EUR and GBP balances, widget <code>manage</code> mode and a sandbox simulate endpoint. <a href="/additional/changelog">Read the changelog</a>.';

export const ANNOUNCEMENT = {
  enabled: true,
  content: announcementHtml,
  id: `announcement-${hashText(announcementHtml)}`,
  isCloseable: true,
  /** Same in both colour modes; 9.6:1 contrast. */
  backgroundColor: '#0042b3',
  textColor: '#ffffff',
} as const;

/** Search box settings (spec §2, §7, §9: the maximum number of hits comes from here). */
/** The docs' MCP server for coding assistants (mcp/http.ts behind nginx: deploy/README.md). */
export const MCP = {path: '/mcp'} as const;

export const SEARCH = {
  resultLimit: 8,
  contextMaxLength: 60,
  placeholder: 'Search',
  /** What the box reads, disabled, until its index is loaded (spec §9). */
  loadingText: 'Loading...',
  /** Cmd+K on Mac, Ctrl+K elsewhere (spec §9). */
  shortcutKey: 'k',
  /** The index is fetched this long after hydration at the latest (sooner when the browser is idle). */
  preloadTimeoutMs: 300,
  /**
   * What is searched is bounded so that any query is answered within 100 ms: lunr's fuzzy
   * and wildcard matching grow with the length of each word and the number of words.
   */
  maxQueryLength: 60,
  maxQueryWords: 5,
} as const;

/** The locale the site is written in (the spec allows English only). */
export const LOCALE = {code: 'en', label: 'English', direction: 'ltr', htmlLang: 'en'} as const;

/** Stable 32-bit FNV-1a hash, base 36: short, deterministic ids from text. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}
