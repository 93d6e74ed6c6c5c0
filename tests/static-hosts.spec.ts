/**
 * Static hosts (Netlify, Cloudflare Pages): build/_headers (plugins/csp) gives every file the headers the real nginx
 * sends for it now, not a copy of its rules, so the two cannot drift apart. Plain Node, no browser.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

import {expect, test} from '@playwright/test';

import {HOST_DEFAULT_CACHE_CONTROL, IMMUTABLE, headersFor, parseHeadersFile} from '../plugins/csp/static-hosts';
import {BUILD_DIR, startNginx} from './support/nginx';

const HEADERS_FILE = path.join(BUILD_DIR, '_headers');

/** Headers a static host sets itself (or that describe the body): not part of the rules. */
const HOST_OWNED = new Set(
  `accept-ranges age connection content-encoding content-length content-type date etag expires keep-alive
  last-modified location server transfer-encoding vary`.split(/\s+/),
);

/** `no-cache`, `no-store` or an age of 0 that must be revalidated: a deploy is seen on the next use. */
const revalidatesEveryUse = (value: string | undefined): boolean =>
  value !== undefined &&
  (/\bno-(?:cache|store)\b/.test(value) || (/\bmax-age=0\b/.test(value) && /\bmust-revalidate\b/.test(value)));

/** The URL path of each served file of the build: pages by their canonical path, other files as they are. */
function servedPaths(): string[] {
  return readdirSync(BUILD_DIR, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(BUILD_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
    .filter((file) => !file.includes('/.') && file !== '/_headers' && file !== '/404.html')
    .map((file) => (file.endsWith('.html') ? file.replace(/(?:\/index)?\.html$/, '') || '/' : file));
}

test(
  'static hosts: _headers sends what nginx sends for every file of the build; a hashed asset is immutable, a page, the search index and /openapi.yaml are left to the host',
  {tag: '@viewport-independent'},
  async () => {
    expect(existsSync(HEADERS_FILE), 'build/_headers (plugins/csp): run `npm run build:e2e` first').toBe(true);
    const rules = parseHeadersFile(readFileSync(HEADERS_FILE, 'utf8'));
    const paths = servedPaths();
    expect(paths.length).toBeGreaterThan(50);
    const rulesCache: Record<string, string | undefined> = {};
    const nginx = await startNginx();
    try {
      for (const urlPath of paths) {
        const response = await fetch(`${nginx.urlWithoutCollector}${urlPath}`, {redirect: 'manual'});
        expect(response.status, urlPath).toBe(200);
        // Without host-owned headers: the security headers equal; Cache-Control equal if immutable, else revalidating.
        const fromNginx: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!HOST_OWNED.has(name)) fromNginx[name] = value;
        });
        const {'cache-control': nginxCache, ...nginxSecurity} = fromNginx;
        const {'cache-control': cache, ...rulesSecurity} = headersFor(rules, urlPath);
        expect(rulesSecurity, `security headers of ${urlPath}`).toEqual(nginxSecurity);
        rulesCache[urlPath] = cache;
        if (nginxCache === IMMUTABLE) {
          expect(cache, `Cache-Control of ${urlPath}`).toBe(IMMUTABLE);
        } else {
          expect(revalidatesEveryUse(nginxCache), `nginx's Cache-Control of ${urlPath}: ${nginxCache}`).toBe(true);
          const rulesOrHost = cache ?? HOST_DEFAULT_CACHE_CONTROL;
          expect(revalidatesEveryUse(rulesOrHost), `_headers' Cache-Control of ${urlPath}: ${cache}`).toBe(true);
        }
      }
    } finally {
      await nginx.stop();
    }
    const html = readFileSync(path.join(BUILD_DIR, 'basics/sdk.html'), 'utf8');
    const asset = /src="?(\/assets\/js\/main\.[0-9a-f]{8}\.js)/.exec(html)?.[1];
    const index = readdirSync(BUILD_DIR).find((name) => /^search-index-[0-9a-f]+\.json$/.test(name));
    expect(asset, 'main.js named in the page').toBeTruthy();
    expect(index, 'a hashed search index').toBeTruthy();
    // Both classes are really there: nginx makes the asset immutable and revalidates the rest.
    const samples = ['/basics/sdk', asset!, `/${index}`, '/openapi.yaml'];
    expect(paths, 'one file of each class among those checked').toEqual(expect.arrayContaining(samples));
    const classes = samples.map((urlPath) => rulesCache[urlPath]);
    expect(classes, `_headers' Cache-Control of ${samples.join(', ')}`).toEqual([
      undefined,
      IMMUTABLE,
      undefined,
      undefined,
    ]);
  },
);
