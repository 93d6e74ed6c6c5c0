/**
 * The production web server: a real nginx with deploy/nginx.conf serving build/ (tests/support/nginx.ts starts it).
 * What nginx sends does not depend on the viewport (phone pages are tested on `docusaurus serve`): all run once.
 */
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {Agent, createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders} from 'node:http';
import {connect, createServer as createNetServer} from 'node:net';
import path from 'node:path';
import {freePort} from '../lib/ports';
import {docPages} from './support/docs';
import {
  BUILD_DIR,
  COLLECTOR_ANSWER_HEADERS,
  CSP_INCLUDE,
  listenLoopback,
  rawExchange,
  rawRequest,
  nginxWorkerFixture,
  serverBlock,
  startExampleSite,
  startNginxWith,
  type NginxServer,
  type RawAnswer,
  type SiteBlock,
} from './support/nginx';
import {searchInput, searchListbox, waitForSearchReady} from './support/search';
import {test as base, expect, openPage} from './support/fixtures';

const test = base.extend<object, {nginx: NginxServer}>({
  nginx: nginxWorkerFixture,
  baseURL: async ({nginx}, use) => use(nginx.url),
  // Every CSP violation of every page the test opens (the console check catches them too); a test without a page opens none.
  page: async ({page}, use) => {
    const violations: string[] = [];
    await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
    await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
        window.__reportCspViolation(event.violatedDirective + ' ' + event.blockedURI + ' ' + event.sourceFile + ':' + event.lineNumber));`);
    await use(page);
    expect(violations, 'CSP violations').toEqual([]);
  },
});

const NOT_FOUND_LOG = /Failed to load resource: the server responded with a status of 404/;
const SEARCH_INDEX = `/${readdirSync(BUILD_DIR).find((name) => /^search-index-[0-9a-f]+\.json$/.test(name))}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const writtenCsp = () => /set \$docs_csp "([^"]*)";/.exec(readFileSync(CSP_INCLUDE, 'utf8'))![1]!;
/** The hashed main script that `/` loads. */
const mainScript = async (siteUrl: string) =>
  /src="?(\/assets\/js\/main\.[^"\s>]+\.js)/.exec(await (await fetch(`${siteUrl}/`)).text())![1]!;

const get = (urlPath: string, extra = '', method = 'GET') =>
  `${method} ${urlPath} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;
const post = (urlPath: string, body: string, extra = '', type = 'text/plain') =>
  `POST ${urlPath} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`;
/** A server block over build/ without brotli, collector or MCP unless `settings` name them. */
const block = (port: number | undefined, settings: Partial<SiteBlock> = {}) =>
  serverBlock({port: port!, root: BUILD_DIR, collector: '', brotli: false, ...settings});
const headerOf = (answer: RawAnswer, name: string) => Object.fromEntries(answer.headers)[name];
const forwardedFrom = (nginx: NginxServer, client: string) =>
  nginx.events.filter((event) => event.headers['x-forwarded-for'] === client);

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
    await expect(searchListbox(page).getByRole('option').first()).toBeVisible();
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
    test(`${variant} is 301-redirected to ${canonical}`, async ({request}) => {
      const response = await request.get(variant, {maxRedirects: 0});
      expect(response.status()).toBe(301);
      expect(response.headers()['location']).toBe(canonical);
    });
  }

  test('a browser follows the redirect to the canonical page', async ({page}) => {
    await openPage(page, '/basics/sdk.html?tab=npm');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/basics/sdk?tab=npm');
  });

  test('redirects never leave the site', async ({request, nginx}) => {
    for (const path of [
      '//evil.example.html',
      '/%2F%2Fevil.example.html',
      '/%5Cevil.example.html',
      '/%2F%2Fevil.example/index.html',
    ]) {
      // An absolute URL: a bare `//host…` would be read as another host by the client itself.
      const response = await request.get(`${nginx.url}${path}`, {maxRedirects: 0});
      expect(response.headers()['location'] ?? '', path).not.toMatch(/^(?:[a-z]+:)?[/\\]{2}|^\/\\/i);
    }
  });
});

test.describe('nginx: not found', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: NOT_FOUND_LOG});

  // One not-found page for every path (the browser shows it, under the CSP, once); each path is checked over HTTP.
  test('an unknown path shows the not-found page with 404 in the browser', async ({page}) => {
    const response = await openPage(page, '/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Page Not Found');
  });

  test('every unknown, hidden or reserved path answers 404 with the not-found page', async ({request}) => {
    const notFoundPage = readFileSync(path.join(BUILD_DIR, '404.html'), 'utf8');
    for (const unknown of ['/404', '/404.html', `/${'a'.repeat(1500)}`, '/.nginx/csp.conf', '/getting-started']) {
      const response = await request.get(unknown, {maxRedirects: 0});
      expect(response.status(), unknown.slice(0, 40)).toBe(404);
      expect(await response.text(), unknown.slice(0, 40)).toBe(notFoundPage);
    }
  });

  // A browser resolves dot segments before it sends a request; a hostile client sends them as they are.
  test('a path that climbs out of the site, sent raw, is refused and serves no file outside it', async ({nginx}) => {
    // More levels than any root has: a server that followed them would reach /etc/passwd.
    const up = 32;
    for (const climb of [
      `${'/..'.repeat(up)}/etc/passwd`,
      `${'/%2e%2e'.repeat(up)}/etc/passwd`,
      `/assets/${'..%2f'.repeat(up)}etc/passwd`,
    ]) {
      const answer = await rawExchange(nginx.url, get(climb));
      expect([400, 404], climb.slice(0, 40)).toContain(answer.status);
      expect(answer.body, climb.slice(0, 40)).not.toMatch(/^root:[^:]*:\d+:\d+:/m);
    }
  });
});

test.describe('nginx: headers', {tag: '@viewport-independent'}, () => {
  // Whether the hashes cover every inline script is what the page fixture sees on every page these tests open.
  test('the CSP is the policy this build wrote: script hashes, no unsafe script sources', async ({request}) => {
    const header = (await request.get('/')).headers()['content-security-policy']!;
    expect(header).toBe(writtenCsp());
    const directives = Object.fromEntries(header.split('; ').map((d) => /^(\S+) ?(.*)$/.exec(d)!.slice(1, 3)));
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

  // The search index is named after docs/ only, but pages' text from src/constants changes it too: revalidated, never immutable.
  test('cache: hashed assets immutable for a year; HTML, the search index and other files revalidated', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text();
    const hashed = [...html.matchAll(/(?:src|href)="?(\/assets\/[^"\s>]+)/g)].map((m) => m[1]!);
    expect(hashed.length).toBeGreaterThan(2);
    for (const path of hashed.slice(0, 4))
      expect((await request.get(path)).headers()['cache-control'], path).toBe(IMMUTABLE);
    for (const path of ['/', '/basics/sdk', SEARCH_INDEX, '/sitemap.xml', '/img/social-card.png', '/no/such/page'])
      expect((await request.get(path)).headers()['cache-control'], path).toBe('no-cache');
    for (const path of ['/', SEARCH_INDEX]) {
      const first = await request.get(path);
      expect(first.status(), path).toBe(200);
      const etag = first.headers()['etag'];
      expect(etag, `${path}: an ETag to revalidate with`).toBeTruthy();
      expect((await request.get(path, {headers: {'If-None-Match': etag!}})).status(), `${path} revalidated`).toBe(304);
    }
  });

  test("compression: the build's .gz and .br twins are sent as they are (brotli when the modules are installed)", async ({
    request,
    nginx,
  }) => {
    const asset = await mainScript(nginx.url);
    for (const urlPath of [
      '/',
      '/basics/sdk',
      asset,
      SEARCH_INDEX,
      '/sitemap.xml',
      '/openapi.yaml',
      '/llms-full.txt',
    ]) {
      const file = {'/': 'index.html', '/basics/sdk': 'basics/sdk.html'}[urlPath] ?? urlPath;
      // The twin's exact size: nginx sent the file, it did not compress per request.
      for (const accept of ['gzip', 'br, gzip']) {
        const [encoding, extension] = accept === 'gzip' || !nginx.brotli ? ['gzip', '.gz'] : ['br', '.br'];
        const answer = await request.get(urlPath, {headers: {'Accept-Encoding': accept}});
        expect(answer.headers()['content-encoding'], `${urlPath} for ${accept}`).toBe(encoding);
        expect(answer.headers()['vary'], `${urlPath} for ${accept}`).toMatch(/Accept-Encoding/i);
        const twin = statSync(path.join(BUILD_DIR, `${file}${extension}`)).size;
        expect(Number(answer.headers()['content-length']), `${urlPath}: the ${extension} twin`).toBe(twin);
        expect(await answer.text(), `${urlPath} decoded`).toBe(readFileSync(path.join(BUILD_DIR, file), 'utf8'));
      }
    }
    const identity = await request.get('/', {headers: {'Accept-Encoding': 'identity'}});
    expect(identity.headers()['content-encoding']).toBeUndefined();
  });

  test('content types: .md, .txt, .yaml, .xml and pages', async ({request, nginx}) => {
    for (const [url, type] of [
      [`${nginx.urlSamples}/page.md`, 'text/markdown; charset=utf-8'],
      [`${nginx.urlSamples}/notes.txt`, 'text/plain; charset=utf-8'],
      [`${nginx.urlSamples}/spec.yaml`, 'application/yaml'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/openapi.yaml', 'application/yaml'],
      ['/sitemap.xml', 'text/xml; charset=utf-8'],
      ['/', 'text/html; charset=utf-8'],
    ])
      expect((await request.get(url!)).headers()['content-type'], url).toBe(type);
  });
});

/** The headers every answer carries, once each (the CSP is the build's, checked in full). */
const EVERY_ANSWER = {
  'cache-control': /^(?:no-cache|no-store|public, max-age=31536000, immutable)$/,
  'content-security-policy': /^default-src 'self'; script-src 'self' 'sha256-/,
  'strict-transport-security': /^max-age=63072000; includeSubDomains$/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
  'permissions-policy': /^accelerometer=\(\), camera=\(\), geolocation=\(\).*microphone=\(\).*usb=\(\)$/,
  'x-frame-options': /^DENY$/,
};

/** The headers nginx's own answer to an event may carry: HTTP's own and the site's set. */
const EVENT_ANSWER_ALLOWED = [
  'server',
  'date',
  'content-type',
  'content-length',
  'connection',
  ...Object.keys(EVERY_ANSWER),
];

/** The names of `answer`'s headers that `allowed` does not list. */
const headersBeyond = (answer: RawAnswer, allowed: string[]) =>
  answer.headers.map(([name]) => name).filter((name) => !allowed.includes(name));

/** `answer` has `status`, every security header exactly once (the build's CSP) and the `expected` header values. */
function expectAnswer(answer: RawAnswer, status: number, label: string, expected: Record<string, string> = {}): void {
  expect(answer.status, `${label}\n${answer.head}`).toBe(status);
  const names = answer.headers.map(([name]) => name);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  expect(repeated, `${label}: headers sent twice\n${answer.head}`).toEqual([]);
  const headers = Object.fromEntries(answer.headers);
  for (const [name, pattern] of Object.entries(EVERY_ANSWER))
    expect(headers[name], `${label}: ${name}\n${answer.head}`).toMatch(pattern);
  expect(headers['content-security-policy'], `${label}: the build's CSP`).toBe(writtenCsp());
  for (const [name, value] of Object.entries(expected)) expect(headers[name], `${label}: ${name}`).toBe(value);
}

test.describe('nginx: every answer', {tag: '@viewport-independent'}, () => {
  test('200, 202, 204, 301, 304, 400, 404, 405, 413, 414, 416, 501 and 505 each carry every security header exactly once', async ({
    nginx,
  }) => {
    const etag = headerOf(await rawRequest(nginx.url, get('/')), 'etag')!;
    const cases: [number, string, string][] = [
      [200, nginx.url, get('/')],
      [200, nginx.url, get('/basics/sdk')],
      [200, nginx.url, get('/sitemap.xml')],
      [200, nginx.url, get(await mainScript(nginx.url), 'Accept-Encoding: br, gzip\r\n')],
      [204, nginx.urlWithoutCollector, post('/api/event', '{}')],
      [301, nginx.url, get('/basics/sdk.html')],
      [304, nginx.url, get('/', `If-None-Match: ${etag}\r\n`)],
      [400, nginx.url, 'GET / HTTP/1.1\r\nHost: localhost\r\nHost: other\r\n\r\n'],
      [400, nginx.url, 'NONSENSE\r\n\r\n'],
      [404, nginx.url, get('/no/such/page')],
      [404, nginx.url, get('/assets/js/missing.0123abcd.js')],
      [405, nginx.url, post('/basics/sdk', '{}')],
      [405, nginx.url, get('/api/event')],
      [413, nginx.url, post('/api/event', 'x'.repeat(5000))],
      [414, nginx.url, get(`/${'a'.repeat(10_000)}`)],
      [416, nginx.url, get('/sitemap.xml', 'Range: bytes=99999999-\r\n')],
      [501, nginx.url, 'POST /api/event HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n'],
      // A dead collector changes nothing for the visitor: nginx answers for it.
      [202, nginx.urlDeadCollector, post('/api/event', '{}')],
      [505, nginx.url, 'GET / HTTP/3.0\r\nHost: localhost\r\n\r\n'],
    ];
    for (const [status, url, request] of cases)
      expectAnswer(await rawRequest(url, request), status, `${status} for ${request.split('\r\n')[0]!.slice(0, 60)}`);
    expect(nginx.errorLog()).not.toMatch(/uninitialized/);
  });

  test('nginx -t accepts the configuration without a warning', async ({nginx}) => {
    expect(nginx.configTest).toMatch(/test is successful/);
    expect(nginx.configTest).not.toMatch(/\[(?:warn|emerg|alert|crit|error)\]/);
  });
});

test.describe('nginx: what is never served or cached', {tag: '@viewport-independent'}, () => {
  test('errors under /assets/ are never cached as the asset: a failed If-Match is no-cache, a Range gets the whole file', async ({
    nginx,
  }) => {
    const asset = await mainScript(nginx.url);
    const failed = await rawRequest(nginx.url, get(asset, 'If-Match: "not-this-one"\r\n'));
    expectAnswer(failed, 412, '412', {'cache-control': 'no-cache'});
    const ranged = await rawRequest(nginx.url, get(asset, 'Range: bytes=99999999-\r\n'));
    expectAnswer(ranged, 200, 'a Range on an asset', {'cache-control': IMMUTABLE});
    const missing = await rawRequest(nginx.url, get('/assets/js/missing.0123abcd.js'));
    expect(headerOf(missing, 'cache-control')).toBe('no-cache');
  });

  test('the static-host header file is not published', async ({nginx}) => {
    expect(existsSync(path.join(BUILD_DIR, '_headers')), 'build/_headers exists').toBe(true);
    for (const file of ['/_headers', '/_headers.gz', '/_headers.br'])
      expect((await rawRequest(nginx.url, get(file))).status, file).toBe(404);
    expect(await (await fetch(`${nginx.url}/_headers`)).text()).not.toContain('Content-Security-Policy:');
  });

  test('a server block without the CSP include serves nothing (500) beside one with it; alone, nginx -t fails', async () => {
    const withoutCsp = (port?: number) => block(port).replace(/^\s*include [^\n]*csp\.conf;\n/m, '');
    expect(withoutCsp(1)).not.toContain('csp.conf');
    const both = await startNginxWith(2, ([first, second]) => `${block(first)}\n${withoutCsp(second)}`);
    try {
      const [guarded, bare] = both.urls;
      expect((await fetch(`${guarded}/basics/sdk`)).status).toBe(200);
      for (const urlPath of ['/', '/basics/sdk', '/assets/', '/llms.txt']) {
        const answer = await fetch(`${bare}${urlPath}`);
        expect(answer.status, urlPath).toBe(500);
        expect(await answer.text(), urlPath).not.toContain('<div id="__docusaurus">');
      }
    } finally {
      await both.stop();
    }
    await expect(startNginxWith(1, ([port]) => withoutCsp(port))).rejects.toThrow(/docs_csp/);
  });
});

test.describe('nginx: deploy/site.conf.example', {tag: '@viewport-independent'}, () => {
  test('loads without a warning, serves the site over TLS and redirects plain HTTP to its own name, whatever the Host', async () => {
    const site = await startExampleSite();
    try {
      expect(site.configTest).not.toMatch(/\[(?:warn|emerg|alert|crit|error)\]/);
      for (const host of ['evil.example', 'docs.example.com']) {
        const answer = await rawRequest(site.httpUrl, get('/basics/sdk?tab=npm').replace('localhost', host));
        expect(answer.status, host).toBe(301);
        expect(headerOf(answer, 'location'), host).toBe('https://docs.example.com/basics/sdk?tab=npm');
      }
      const servername = 'docs.example.com';
      const secure = await rawRequest(site.httpsUrl, get('/basics/sdk').replace('localhost', servername), {servername});
      // The build's CSP and HSTS, with every other security header, once each.
      expectAnswer(secure, 200, 'over TLS');
    } finally {
      await site.stop();
    }
  });
});

/** An event POST from `client` whose body is promised and never (or slowly) sent; `received` is what came back. */
function openSlowPost(url: string, client: string, framing = 'Content-Length: 100\r\n\r\n{') {
  const {hostname, port} = new URL(url);
  const socket = connect({host: hostname, port: Number(port), localAddress: client});
  const state = {received: '', reset: false};
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString('latin1')));
  socket.on('error', (error: NodeJS.ErrnoException) => (state.reset = error.code === 'ECONNRESET'));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`POST /api/event HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n${framing}`);
  return {socket, state, closed};
}

/** A promise and the function that settles it. */
function signal(): [Promise<void>, () => void] {
  let settle!: () => void;
  return [new Promise<void>((resolve) => (settle = resolve)), () => settle()];
}

test.describe('nginx: /api/event', {tag: '@viewport-independent'}, () => {
  test('answers 202 itself (nothing of the collector reaches the visitor); forwards only Content-Type, User-Agent and the client address', async ({
    nginx,
  }) => {
    const pageview = {name: 'pageview', url: 'https://docs.example.com/basics/sdk', domain: 'docs.example.com'};
    const body = JSON.stringify({...pageview, n: Math.random()});
    const identity =
      'X-Forwarded-For: 203.0.113.7\r\nX-Real-IP: 203.0.113.7\r\nForwarded: for=203.0.113.7;proto=https\r\n' +
      'X-Forwarded-Host: evil.example\r\nProxy-Authorization: Basic c2VjcmV0\r\nAuthorization: Bearer secret\r\n' +
      'Cookie: session=secret\r\nX-Api-Key: secret\r\nApi-Key: secret\r\nOrigin: https://docs.example.com\r\n' +
      'Referer: https://docs.example.com/search?q=my+secret+query\r\nUser-Agent: Mozilla/5.0 (test) Chromium\r\n';
    const answer = await rawRequest(nginx.url, post('/api/event', body, identity), {localAddress: '127.0.0.2'});
    expectAnswer(answer, 202, 'the 202', {'cache-control': 'no-store', 'content-length': '0'});
    expect(headersBeyond(answer, EVENT_ANSWER_ALLOWED), answer.head).toEqual([]);
    for (const [name, value] of Object.entries(COLLECTOR_ANSWER_HEADERS))
      expect(headerOf(answer, name.toLowerCase()), `the collector's ${name}`).not.toBe(value);
    // The copy reaches the collector beside the answer, not before it.
    await expect.poll(() => nginx.events.some((e) => e.body === body)).toBe(true);
    const event = nginx.events.find((e) => e.body === body)!;
    expect(event).toMatchObject({method: 'POST', url: '/api/event'});
    expect(event.headers).toEqual({
      connection: expect.any(String),
      'content-length': expect.any(String),
      'content-type': 'text/plain',
      // The collector's own host (nginx's default), not the one the visitor named.
      host: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      'user-agent': 'Mozilla/5.0 (test) Chromium',
      'x-forwarded-for': '127.0.0.2',
    });
    expect(event.headers.host).not.toBe(new URL(nginx.url).host);
  });

  test('an Upgrade request gets the 202, never a tunnel, even from a collector that answers 101', async () => {
    // A collector that switches protocols on every request and then echoes whatever it is sent.
    const upgrading = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        socket.on('data', (chunk) => socket.write(chunk));
      });
    });
    const collector = `http://127.0.0.1:${await listenLoopback(upgrading)}/api/event`;
    const site = await startNginxWith(1, ([port]) => block(port, {collector}));
    try {
      const upgrade =
        'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
      const request = `POST /api/event HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n${upgrade}\r\n{}`;
      const answer = await rawRequest(site.urls[0]!, request);
      expect(answer.status).toBe(202);
      expect(answer.head).not.toMatch(/^HTTP\/1\.1 101|^Upgrade:/im);
    } finally {
      await site.stop();
      upgrading.close();
    }
  });

  test('an https collector with an untrusted (self-signed) certificate gets nothing; the visitor still gets 202', async ({
    nginx,
  }) => {
    const answer = await rawRequest(nginx.urlUntrustedCollector, post('/api/event', '{"name":"pageview"}'));
    expect(answer.status).toBe(202);
    await expect.poll(() => nginx.errorLog()).toMatch(/upstream SSL certificate verify error/);
    expect(nginx.untrustedEvents).toEqual([]);
  });

  test('other methods get 405 whether or not a collector is set; with none, events get 204', async ({nginx}) => {
    for (const url of [nginx.url, nginx.urlWithoutCollector]) {
      for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
        const answer = await rawRequest(url, get('/api/event', '', method));
        expect(answer.status, `${method} ${url}`).toBe(405);
        expect(headerOf(answer, 'allow'), `${method} ${url}`).toBe('POST');
      }
    }
    expect((await rawRequest(nginx.urlWithoutCollector, post('/api/event', '{}'))).status).toBe(204);
  });

  test('a body over 2 KiB gets 413 and is not forwarded', async ({nginx}) => {
    const body = `{"big":"${'x'.repeat(2100)}"}`;
    expect((await rawRequest(nginx.url, post('/api/event', body))).status).toBe(413);
    // Forwarding is asynchronous: once a later event has arrived, the refused one would have too.
    const marker = `{"after":${Math.random()}}`;
    expect((await rawRequest(nginx.url, post('/api/event', marker))).status).toBe(202);
    await expect.poll(() => nginx.events.some((e) => e.body === marker)).toBe(true);
    expect(nginx.events.some((e) => e.body === body)).toBe(false);
  });

  test('one client: after a burst of 20, 429 (every security header once) and nothing more forwarded', async ({
    nginx,
  }) => {
    const client = '127.0.0.5';
    const started = Date.now();
    const answers: RawAnswer[] = [];
    for (let i = 0; i < 40; i++)
      answers.push(await rawRequest(nginx.url, post('/api/event', `{"flood":${i}}`), {localAddress: client}));
    const seconds = (Date.now() - started) / 1000;
    const statuses = answers.map((answer) => answer.status);
    const accepted = statuses.filter((status) => status === 202).length;
    await expect.poll(() => forwardedFrom(nginx, client).length).toBe(accepted);
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited, 'a 429 within 40 quick events').toBeDefined();
    expectAnswer(limited!, 429, '429');
    expect(statuses.every((status) => status === 202 || status === 429)).toBe(true);
    // 1 + a burst of 20, plus 5 a second for the time the flood took.
    expect(accepted).toBeLessThanOrEqual(21 + Math.ceil(5 * seconds));
    // Another client is not held back.
    expect((await rawRequest(nginx.url, post('/api/event', '{}'), {localAddress: '127.0.0.6'})).status).toBe(202);
  });

  test('a stalled event body is dropped after the body timeout, nothing forwarded', async ({nginx}) => {
    const client = '127.0.0.8';
    const {state, closed} = openSlowPost(nginx.url, client);
    // nginx ends the connection itself (client_body_timeout on this path, then a reset: reset_timedout_connection).
    await closed;
    const {received, reset} = state;
    expect(reset || received.startsWith('HTTP/1.1 408 '), `reset or 408; received: ${received}`).toBe(true);
    expect(forwardedFrom(nginx, client)).toEqual([]);
  });

  test('one client: beyond 8 requests at a time, 429', async ({nginx}) => {
    const client = '127.0.0.7';
    // Ten slow requests: headers sent, body promised but never sent, so each holds its place.
    const posts = Array.from({length: 10}, () => openSlowPost(nginx.url, client));
    try {
      await expect.poll(() => posts.filter(({state}) => state.received).length).toBe(2);
      for (const {state} of posts.filter(({state}) => state.received))
        expect(state.received).toMatch(/^HTTP\/1\.1 429 /);
    } finally {
      for (const {socket} of posts) socket.destroy();
    }
    expect(forwardedFrom(nginx, client)).toEqual([]);
  });

  test('a trickling body is cut at 2 KiB whatever its pace: it never outlasts 2 KiB of pauses', async ({nginx}) => {
    const client = '127.0.0.9';
    const {socket, state, closed} = openSlowPost(nginx.url, client, 'Transfer-Encoding: chunked\r\n\r\n');
    // A chunk each quarter second, well inside the body timeout: only the size limit can end it.
    const piece = 'x'.repeat(128);
    let sent = 0;
    const trickle = setInterval(() => {
      if (socket.destroyed) return;
      socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      sent += piece.length;
    }, 250);
    await closed.finally(() => clearInterval(trickle));
    // Cut by size (413), or by a pause if the machine stalled the trickle: never more than 2 KiB read.
    expect(state.received === '' || /^HTTP\/1\.1 (?:413|408) /.test(state.received), state.received).toBe(true);
    expect(sent).toBeLessThanOrEqual(2048 + piece.length);
    expect(forwardedFrom(nginx, client)).toEqual([]);
  });

  test("with a slow collector the visitor's next request does not wait for it: the event's connection closes", async () => {
    const order: string[] = [];
    const [released, release] = signal();
    const [arrived, forwarded] = signal();
    const [collectorDone, finished] = signal();
    // Holds each event until the test lets it answer; nginx giving up on it first shows as a close.
    const collector = createHttpServer((request, response) => {
      request.resume();
      forwarded();
      response.on('close', () => {
        if (!response.writableEnded) order.push('collector cut off');
        finished();
      });
      void released.then(() => {
        order.push('collector answered');
        response.writeHead(202).end();
      });
    });
    const collectorUrl = `http://127.0.0.1:${await listenLoopback(collector)}/api/event`;
    const site = await startNginxWith(1, ([port]) => block(port, {collector: collectorUrl}));
    // A browser's connection pool: one connection, kept alive when the server allows it.
    const agent = new Agent({keepAlive: true, maxSockets: 1});
    const send = (method: string, urlPath: string, body?: string) =>
      new Promise<{status: number; headers: IncomingHttpHeaders}>((resolve, reject) => {
        const request = httpRequest(`${site.urls[0]}${urlPath}`, {method, agent}, (response) => {
          response.resume();
          response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers}));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      const event = await send('POST', '/api/event', '{"name":"pageview"}');
      expect(event.status).toBe(202);
      expect(event.headers['connection']).toBe('close');
      await arrived;
      const page = await send('GET', '/basics/sdk');
      expect(page.status).toBe(200);
      order.push('page answered');
      release();
      await collectorDone;
      expect(order).toEqual(['page answered', 'collector answered']);
    } finally {
      release();
      agent.destroy();
      await site.stop();
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});

/** What a hostile MCP upstream answers with: headers that would act on the visitor's browser or on nginx itself. */
const HOSTILE_UPSTREAM_HEADERS: Record<string, string> = {
  ...COLLECTOR_ANSWER_HEADERS,
  Refresh: '0; url=https://evil.example/',
  'Content-Security-Policy-Report-Only': 'default-src *',
  'X-Content-Type-Options': 'none',
  'Referrer-Policy': 'unsafe-url',
  'Permissions-Policy': 'camera=*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cross-Origin-Opener-Policy': 'unsafe-none',
  'Clear-Site-Data': '"*"',
  Expires: 'Thu, 01 Jan 2099 00:00:00 GMT',
  'Last-Modified': 'Thu, 01 Jan 2099 00:00:00 GMT',
  'Content-Disposition': 'attachment; filename=evil.html',
  'Content-Location': 'https://evil.example/',
  'WWW-Authenticate': 'Basic realm="evil"',
  Allow: 'GET, PUT, DELETE',
  'Mcp-Session-Id': 'planted',
  'Timing-Allow-Origin': '*',
  'X-XSS-Protection': '0',
  'X-Robots-Tag': 'all',
  // Instructions to a CDN in front, and browser policies that would act on the docs' origin.
  'CDN-Cache-Control': 'max-age=86400',
  'Surrogate-Control': 'max-age=86400',
  'Speculation-Rules': '"/evil.json"',
  'Service-Worker-Allowed': '/',
  'Document-Policy': 'force-load-at-top',
  'Origin-Trial': 'planted',
  SourceMap: 'https://evil.example/map',
  // Instructions to nginx itself: serve an internal page instead, send a byte a second, a charset.
  'X-Accel-Redirect': '/404.html',
  'X-Accel-Limit-Rate': '1',
  'X-Accel-Buffering': 'no',
  'X-Accel-Charset': 'koi8-r',
  'X-Accel-Expires': '600',
};

/** The headers an answer from /mcp may carry: HTTP's own, the JSON body's (Vary: nginx's compression) and the site's. */
const MCP_ANSWER_ALLOWED = [...EVENT_ANSWER_ALLOWED, 'transfer-encoding', 'vary'];

test.describe('nginx: /mcp', {tag: '@viewport-independent'}, () => {
  const seen: IncomingHttpHeaders[] = [];
  // The answer's body is larger than one packet: a byte a second (X-Accel-Limit-Rate) would not finish in the test.
  const answerBody = JSON.stringify({jsonrpc: '2.0', id: 1, result: {pad: 'y'.repeat(4000)}});
  // A hostile upstream: every answer carries HOSTILE_UPSTREAM_HEADERS; the status is what the body asks for.
  const upstream = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push(request.headers);
      const status = Number(/"status":(\d{3})/.exec(body)?.[1] ?? 200);
      response.writeHead(status, {'Content-Type': 'application/json', ...HOSTILE_UPSTREAM_HEADERS}).end(answerBody);
    });
  });
  let site: Awaited<ReturnType<typeof startNginxWith>>;
  let url: string, noMcp: string, deadMcp: string;

  test.beforeAll(async () => {
    const mcp = `http://127.0.0.1:${await listenLoopback(upstream)}/mcp`;
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    site = await startNginxWith(3, ([up, none, down]) =>
      [block(up, {mcp}), block(none), block(down, {mcp: dead})].join(''),
    );
    [url, noMcp, deadMcp] = site.urls as [string, string, string];
  });
  test.afterAll(async () => {
    await site.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const postMcp = (body: string, extra = '', urlPath = '/mcp') => post(urlPath, body, extra, 'application/json');

  test("the upstream's answer: only an allow-list of headers, the site's own set once, nginx obeys none of its X-Accel-*", async () => {
    for (const status of [200, 400, 403, 500]) {
      const answer = await rawExchange(url, postMcp(`{"status":${status}}`));
      const label = `an upstream ${status}`;
      expect(answer.body, `${label}: the upstream's body, at full speed, not an internal page`).toBe(answerBody);
      expectAnswer(answer, status, label, {'cache-control': 'no-store', 'content-type': 'application/json'});
      expect([undefined, 'Accept-Encoding'], label).toContain(headerOf(answer, 'vary'));
      expect(headersBeyond(answer, MCP_ANSWER_ALLOWED), `${label}\n${answer.head}`).toEqual([]);
    }
  });

  test('the request: an allow-list of headers, with Origin when the client sent one', async () => {
    seen.length = 0;
    const identity = 'Cookie: session=secret\r\nAuthorization: Bearer secret\r\nAccept: application/json\r\n';
    await rawExchange(url, postMcp('{"n":1}', `Origin: https://evil.example\r\n${identity}`));
    await rawExchange(url, postMcp('{"n":2}'));
    const [withOrigin, without] = seen;
    expect(Object.keys(withOrigin!).sort()).toEqual(
      ['accept', 'connection', 'content-length', 'content-type', 'host', 'origin', 'x-forwarded-for'].sort(),
    );
    expect(withOrigin!.origin).toBe('https://evil.example');
    expect(without!.origin).toBeUndefined();
  });

  test('every upgrade form is refused before the upstream sees it; an empty Upgrade is never forwarded', async () => {
    seen.length = 0;
    for (const upgrade of [
      'Upgrade: websocket\r\nConnection: Upgrade\r\n',
      'Upgrade: websocket\r\n',
      'Upgrade: 0\r\n',
      'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n',
      'Connection: upgrade\r\n',
      'Connection: keep-alive, Upgrade\r\n',
    ]) {
      expectAnswer(await rawExchange(url, postMcp('{}', upgrade)), 400, upgrade);
    }
    expect(seen).toEqual([]);
    // nginx's variables cannot tell an empty Upgrade from none: it reaches the server, without the header.
    await rawExchange(url, postMcp('{}', 'Upgrade:\r\n'));
    expect(seen.map((headers) => [headers.upgrade, headers.connection])).toEqual([[undefined, 'close']]);
  });

  test('only /mcp itself reaches the server: other spellings nginx maps to it answer 404', async () => {
    seen.length = 0;
    for (const spelling of ['//mcp', '/./mcp', '/%6dcp', '/x/../mcp'])
      expectAnswer(await rawExchange(url, postMcp('{}', '', spelling)), 404, spelling);
    expect(seen).toEqual([]);
  });

  test('every answer nginx makes for /mcp is never stored: 400, 404, 405, 413, 429, 502', async () => {
    const cases: [number, string, string][] = [
      [400, url, postMcp('{}', 'Upgrade: 0\r\n')],
      [404, noMcp, postMcp('{}')],
      [405, url, get('/mcp')],
      [413, url, postMcp('x'.repeat(70 * 1024))],
      [502, deadMcp, postMcp('{}')],
    ];
    for (const [status, target, request] of cases)
      expectAnswer(await rawExchange(target, request), status, `${status}`, {'cache-control': 'no-store'});
    let limited: RawAnswer | undefined;
    for (let i = 0; i < 100 && !limited; i++) {
      const answer = await rawRequest(url, postMcp('{}'), {localAddress: '127.0.0.10'});
      if (answer.status === 429) limited = answer;
    }
    expect(limited, 'a 429 within 100 quick calls').toBeDefined();
    expectAnswer(limited!, 429, '429', {'cache-control': 'no-store'});
  });
});
