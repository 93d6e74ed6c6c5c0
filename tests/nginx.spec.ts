/**
 * The production web server: a real nginx with deploy/nginx.conf serving build/
 * (tests/support/nginx.ts starts it; without nginx installed these tests fail and say so).
 * What nginx sends does not depend on the viewport; pages on a phone are tested against
 * `docusaurus serve`. So every test here is tagged @viewport-independent: run once.
 */
import {readFileSync} from 'node:fs';
import {docPages} from './support/docs';
import {BUILD_DIR, CSP_INCLUDE, startNginx, type NginxServer} from './support/nginx';
import {searchInput, searchListbox, waitForSearchReady} from './support/search';
import {test as base, expect, openPage} from './support/fixtures';

/** nginx listens on this port and the next two; each parallel Playwright worker gets its own three. */
const BASE_PORT = Number(process.env.DOCS_NGINX_PORT ?? 3180);

const test = base.extend<{cspViolations: string[]}, {nginx: NginxServer}>({
  nginx: [
    async ({}, use, workerInfo) => {
      const server = await startNginx(BASE_PORT + 3 * workerInfo.parallelIndex);
      await use(server);
      await server.stop();
    },
    {scope: 'worker', timeout: 30_000},
  ],
  baseURL: async ({nginx}, use) => use(nginx.url),
  // Every CSP violation of every page the test opens (the console check catches them too).
  cspViolations: [
    async ({page}, use) => {
      const violations: string[] = [];
      await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
      await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
        window.__reportCspViolation(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sourceFile + ':' + event.lineNumber));`);
      await use(violations);
      expect(violations, 'CSP violations').toEqual([]);
    },
    {auto: true},
  ],
});

const NOT_FOUND_LOG = /Failed to load resource: the server responded with a status of 404/;

test.describe('nginx: pages', {tag: '@viewport-independent'}, () => {
  const pages = docPages();
  for (const doc of pages) {
    test(`${doc.path} answers 200 with "${doc.title}" and hydrates`, async ({page}) => {
      const response = await openPage(page, doc.path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
    });
  }

  test('client-side navigation works after hydration', async ({page}) => {
    await openPage(page, '/');
    // A page of another category than `/`: the SDK page of spec §2.
    const target = pages.find((doc) => doc.path === '/basics/sdk')!;
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: target.title, exact: true}).click();
    await expect(page).toHaveURL(target.path);
    await expect(page.getByRole('heading', {level: 1})).toHaveText(target.title);
  });

  test('the search box loads its index and finds a page', async ({page}) => {
    await openPage(page, '/');
    await waitForSearchReady(page);
    await searchInput(page).fill('access token');
    const firstHit = searchListbox(page).getByRole('option').first();
    await expect(firstHit).toBeVisible();
    await searchInput(page).press('Enter');
    await expect(page).not.toHaveURL(/\/$/);
    await expect(page.getByRole('heading', {level: 1})).toBeVisible();
  });

  for (const [variant, canonical] of [
    ['/getting-started/quick-start.html', '/getting-started/quick-start'],
    ['/getting-started/quick-start/index.html', '/getting-started/quick-start'],
    ['/getting-started/quick-start/', '/getting-started/quick-start'],
    ['/index.html', '/'],
    ['/basics/sdk.html?tab=npm', '/basics/sdk?tab=npm'],
  ] as const) {
    test(`${variant} is 301-redirected to ${canonical}`, async ({page, request}) => {
      const response = await request.get(variant, {maxRedirects: 0});
      expect(response.status()).toBe(301);
      expect(response.headers()['location']).toBe(canonical);
      await openPage(page, variant);
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(canonical);
    });
  }

  test('redirects never leave the site', async ({request, nginx}) => {
    for (const path of ['//evil.example.html', '/%2F%2Fevil.example.html', '/%5Cevil.example.html', '/%2F%2Fevil.example/index.html']) {
      // An absolute URL: a bare `//host…` would be read as another host by the client itself.
      const response = await request.get(`${nginx.url}${path}`, {maxRedirects: 0});
      const location = response.headers()['location'] ?? '';
      expect(location, path).not.toMatch(/^(?:[a-z]+:)?[/\\]{2}|^\/\\/i);
    }
  });
});

test.describe('nginx: not found', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: NOT_FOUND_LOG});

  for (const path of ['/no/such/page', '/404', '/404.html', `/${'a'.repeat(1500)}`, '/.nginx/csp.conf', '/getting-started']) {
    test(`${path.slice(0, 40)} gets the not-found page with 404`, async ({page}) => {
      const response = await openPage(page, path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Page Not Found');
    });
  }
});

test.describe('nginx: headers', {tag: '@viewport-independent'}, () => {
  const SECURITY_HEADERS = {
    'strict-transport-security': /^max-age=\d{8,}; includeSubDomains$/,
    'x-content-type-options': /^nosniff$/,
    'referrer-policy': /^strict-origin-when-cross-origin$/,
    'permissions-policy': /camera=\(\).*geolocation=\(\).*microphone=\(\)/,
    'content-security-policy': /^default-src 'self'; script-src 'self' 'sha256-/,
  };

  test('security headers on pages, assets, 404s and redirects', async ({request}) => {
    const asset = (await request.get('/')).text().then((html) => /src="?(\/assets\/js\/main\.[^"\s>]+\.js)/.exec(html)?.[1]);
    for (const path of ['/', '/basics/sdk', (await asset)!, '/no/such/page', '/basics/sdk.html', '/sitemap.xml']) {
      const headers = (await request.get(path, {maxRedirects: 0})).headers();
      for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
        expect(headers[name], `${name} on ${path}`).toMatch(pattern);
      }
    }
  });

  // Whether the hashes cover every inline script is what the cspViolations fixture sees on every
  // page these tests open; here, that nginx sends the policy this build wrote, and its shape.
  test('the CSP is the policy this build wrote: script hashes, no unsafe script sources', async ({request}) => {
    const header = (await request.get('/')).headers()['content-security-policy'];
    const written = /set \$docs_csp "([^"]*)";/.exec(readFileSync(CSP_INCLUDE, 'utf8'))?.[1];
    expect(header).toBe(written);
    const directives = Object.fromEntries(header!.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['script-src']).not.toMatch(/unsafe/);
    // 'self' and hashes only: no host, no nonce, no wildcard.
    expect(directives['script-src']).toMatch(/^'self'(?: 'sha256-[A-Za-z0-9+/]+=*')+$/);
    expect(directives).toMatchObject({
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'object-src': "'none'",
    });
  });

  test('cache: hashed assets immutable for a year, HTML and other files revalidated', async ({request}) => {
    const html = await (await request.get('/')).text();
    const hashed = [...html.matchAll(/(?:src|href)="?(\/assets\/[^"\s>]+)/g)].map((m) => m[1]!);
    expect(hashed.length).toBeGreaterThan(2);
    const index = (await request.get('/')).headers();
    for (const path of [...hashed.slice(0, 4), `/${(await import('node:fs')).readdirSync(BUILD_DIR).find((f) => /^search-index-.*\.json$/.test(f))}`]) {
      expect((await request.get(path)).headers()['cache-control'], path).toBe('public, max-age=31536000, immutable');
    }
    expect(index['cache-control']).toBe('no-cache');
    expect(index['etag']).toBeTruthy();
    for (const path of ['/basics/sdk', '/sitemap.xml', '/img/social-card.png', '/no/such/page']) {
      expect((await request.get(path)).headers()['cache-control'], path).toBe('no-cache');
    }
  });

  test('compression: gzip, and brotli when the module is installed', async ({request, nginx}) => {
    const asset = /src="?(\/assets\/js\/main\.[^"\s>]+\.js)/.exec(await (await request.get('/')).text())![1]!;
    for (const path of ['/', asset, '/sitemap.xml', '/openapi.yaml']) {
      const gzip = await request.get(path, {headers: {'Accept-Encoding': 'gzip'}});
      expect(gzip.headers()['content-encoding'], path).toBe('gzip');
      expect(gzip.headers()['vary'], path).toMatch(/Accept-Encoding/i);
      const br = await request.get(path, {headers: {'Accept-Encoding': 'br, gzip'}});
      expect(br.headers()['content-encoding'], path).toBe(nginx.brotli ? 'br' : 'gzip');
    }
    const identity = await request.get('/', {headers: {'Accept-Encoding': 'identity'}});
    expect(identity.headers()['content-encoding']).toBeUndefined();
  });

  test('content types: .md, .txt, .yaml, .xml and pages', async ({request, nginx}) => {
    const expected: [string, string][] = [
      [`${nginx.urlSamples}/page.md`, 'text/markdown; charset=utf-8'],
      [`${nginx.urlSamples}/notes.txt`, 'text/plain; charset=utf-8'],
      [`${nginx.urlSamples}/spec.yaml`, 'application/yaml'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/openapi.yaml', 'application/yaml'],
      ['/sitemap.xml', 'text/xml; charset=utf-8'],
      ['/', 'text/html; charset=utf-8'],
    ];
    for (const [url, type] of expected) {
      expect((await request.get(url)).headers()['content-type'], url).toBe(type);
    }
  });
});

test.describe('nginx: /api/event', {tag: '@viewport-independent'}, () => {
  test('is proxied to the configured collector, without cookies', async ({request, nginx}) => {
    const body = JSON.stringify({name: 'pageview', url: 'https://docs.example.com/basics/sdk', domain: 'docs.example.com'});
    const response = await request.post('/api/event', {data: body, headers: {'Content-Type': 'text/plain', Cookie: 'session=secret'}});
    expect(response.status()).toBe(202);
    const event = nginx.events.find((e) => e.body === body);
    expect(event).toMatchObject({method: 'POST', url: '/api/event'});
    expect(event?.headers['cookie']).toBeUndefined();
    expect(event?.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect((await request.get('/api/event')).status()).toBe(403);
  });

  test('answers 204 when no collector is configured', async ({request, nginx}) => {
    const response = await request.post(`${nginx.urlWithoutCollector}/api/event`, {data: '{}', headers: {'Content-Type': 'text/plain'}});
    expect(response.status()).toBe(204);
    expect(response.headers()['content-security-policy']).toBeTruthy();
  });
});
