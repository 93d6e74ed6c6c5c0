// The one source of the brand, public URLs and site-wide texts: nothing else spells them out.

export const BRAND = 'Acme Connect';

export const SDK_CLASS = BRAND.replace(/[^A-Za-z0-9]/g, '');

export const NPM_SCOPE = `@${BRAND.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export const SITE = {
  title: `${BRAND} Documentation`,
  tagline: 'Connectivity that rocks your world',
  url: 'https://docs.example.com',
  baseUrl: '/',
  copyrightYear: 2025,
  description: `Developer documentation for the ${BRAND} eSIM partner API, Node SDK, embeddable iframe widget and Postman collection.`,
} as const;

/** `DOCS_ANALYTICS=off` switches it off for one build. */
export const ANALYTICS = {
  enabled: true,
  /** Same-origin: the web server proxies it to the collector. */
  collectorUrl: '/api/event',
  domain: new URL(SITE.url).host,
  allowLocalhost: false,
} as const;

export const COPYRIGHT = `Copyright © ${SITE.copyrightYear} ${BRAND}`;

export const EXTERNAL_LINKS = {
  website: {label: 'Website', href: 'https://www.example.com'},
  apiReference: {label: 'API Reference', href: 'https://api-reference.example.com'},
  support: {label: 'Support', href: 'https://help.example.com'},
} as const;

/** The id derives from the text, so an edited message shows again to readers who dismissed the last one. */
const announcementHtml =
  'New in October 2025: EUR and GBP balances, widget <code>manage</code> mode and a sandbox simulate endpoint. <a href="/additional/changelog">Read the changelog</a>.';

export const ANNOUNCEMENT = {
  enabled: true,
  content: announcementHtml,
  id: `announcement-${hashText(announcementHtml)}`,
  isCloseable: true,
  backgroundColor: '#0042b3',
  textColor: '#ffffff',
} as const;

/** The docs' MCP server for coding assistants (mcp/http.ts behind nginx: deploy/README.md). */
export const MCP = {path: '/mcp'} as const;

export const SEARCH = {
  resultLimit: 8,
  contextMaxLength: 60,
  placeholder: 'Search',
  /** Shown, disabled, until the index loads. */
  loadingText: 'Loading...',
  shortcutKey: 'k',
  /** Latest index fetch after hydration; sooner when the browser is idle. */
  preloadTimeoutMs: 300,
  /** Bounded because lunr's fuzzy and wildcard matching grow with word length and word count; a whole question fits. */
  maxQueryLength: 120,
  /**
   * A question has more words than terms: the plugin's query code reads only its first words (its own bound), the
   * partial matches (lib/search) every word.
   */
  maxQueryWords: 24,
} as const;

/** The Markdown actions' status line, which a failed copy's button points to (aria-describedby). */
export const MARKDOWN_STATUS_ID = 'page-markdown-status';

export const LOCALE = {code: 'en', label: 'English', direction: 'ltr', htmlLang: 'en'} as const;

/** FNV-1a: short deterministic ids from text. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}
