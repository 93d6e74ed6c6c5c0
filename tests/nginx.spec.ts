// The production web server: a real nginx with deploy/nginx.conf serving build/ (tests/support/nginx.ts starts it).
// What nginx sends does not depend on the viewport (phone pages are tested on `docusaurus serve`): all run once.
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs';
import http, {type IncomingHttpHeaders, type RequestListener, type ServerResponse} from 'node:http';
import {createServer as createTlsServer} from 'node:https';
import {connect, createServer as createNetServer, type AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {freePort} from '../lib/ports';
import {docPages} from './support/docs';
import {
  BUILD_DIR,
  CSP_INCLUDE,
  rawExchange,
  rawRequest,
  selfSignedCertificate,
  startExampleSite,
  startSites,
  type RawAnswer,
} from './support/nginx';
import {searchInput, searchListbox, waitForSearchReady} from './support/search';
import {test as base, expect, openPage} from './support/fixtures';

type Received = {method: string; url: string; headers: IncomingHttpHeaders; body: string};

// What every upstream here (collectors, MCP server) answers with: headers that would act on the visitor's browser or
// on nginx itself, none of which may reach the visitor.
const UPSTREAM_HEADERS: Record<string, string> = {
  'Set-Cookie': 'collector_session=abc; Path=/; HttpOnly',
  'Cache-Control': 'public, max-age=600',
  'Content-Security-Policy': 'default-src *',
  'X-Frame-Options': 'SAMEORIGIN',
  'Strict-Transport-Security': 'max-age=0',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Credentials': 'true',
  Location: 'https://collector.example/elsewhere',
  Link: '<https://collector.example/>; rel=preconnect',
  'X-Powered-By': 'Collector 1.0',
  Via: '1.1 collector-proxy',
  'Alt-Svc': 'h3=":443"',
  ETag: '"collector"',
  Vary: 'Cookie',
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

// Larger than one packet: a byte a second (X-Accel-Limit-Rate) would not finish in the test.
const UPSTREAM_BODY = JSON.stringify({jsonrpc: '2.0', id: 1, result: {pad: 'y'.repeat(4000)}});

/** An upstream that notes each request in `seen`; it answers with the status the body asks for (`"status":400`). */
const recorder =
  (seen: Received[]): RequestListener =>
  (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({method: request.method ?? '', url: request.url ?? '', headers: request.headers, body});
      const status = Number(/"status":(\d{3})/.exec(body)?.[1] ?? 200);
      response.writeHead(status, {'Content-Type': 'application/json', ...UPSTREAM_HEADERS}).end(UPSTREAM_BODY);
    });
  };

// The `slow` block's collector holds every event unanswered; what becomes of each: answered, or cut off by nginx.
const slowHeld: ServerResponse[] = [];
const slowOutcomes: Promise<string>[] = [];

/**
 * One nginx for the tests needing no configuration of their own, a block per upstream: `main` (recording collector
 * `events`, hostile MCP server `mcpSeen`), `withoutCollector` (neither: events get 204), `untrusted` (self-signed
 * https collector, `untrustedEvents`), `dead` (nothing listens), `upgrading` (answers 101) and `slow` (`slowHeld`).
 */
async function startSharedNginx() {
  const [events, untrustedEvents, mcpSeen]: Received[][] = [[], [], []];
  const certificates = mkdtempSync(path.join(os.tmpdir(), 'docs-nginx-tls-'));
  const {cert, key} = selfSignedCertificate(certificates);
  const servers = {
    collector: http.createServer(recorder(events)),
    untrusted: createTlsServer({cert: readFileSync(cert), key: readFileSync(key)}, recorder(untrustedEvents)),
    mcp: http.createServer(recorder(mcpSeen)),
    // Switches protocols on every request, then echoes whatever it is sent.
    upgrading: createNetServer((socket) =>
      socket.once('data', () => {
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        socket.on('data', (chunk) => socket.write(chunk));
      }),
    ),
    slow: http.createServer((request, response) => {
      request.resume();
      slowHeld.push(response);
      const outcome = () => (response.writableEnded ? 'collector answered' : 'collector cut off');
      slowOutcomes.push(new Promise((resolve) => response.on('close', () => resolve(outcome()))));
    }),
  };
  const on = async (name: keyof typeof servers, scheme = 'http') => {
    await new Promise<void>((resolve) => servers[name].listen(0, '127.0.0.1', resolve));
    const {port} = servers[name].address() as AddressInfo;
    return `${scheme}://127.0.0.1:${port}/${name === 'mcp' ? 'mcp' : 'api/event'}`;
  };
  const dead = `http://127.0.0.1:${await freePort()}`;
  const site = await startSites({
    main: {collector: await on('collector'), mcp: await on('mcp')},
    withoutCollector: {},
    untrusted: {collector: await on('untrusted', 'https')},
    dead: {collector: `${dead}/api/event`, mcp: `${dead}/mcp`},
    upgrading: {collector: await on('upgrading')},
    slow: {collector: await on('slow')},
  });
  const stop = async () => {
    await site.stop();
    for (const server of Object.values(servers)) server.close();
    rmSync(certificates, {recursive: true, force: true});
  };
  return {...site, url: site.urls.main, events, untrustedEvents, mcpSeen, stop};
}
type Nginx = Awaited<ReturnType<typeof startSharedNginx>>;

const test = base.extend<object, {nginx: Nginx}>({
  nginx: [
    async ({}, use) => {
      const nginx = await startSharedNginx();
      await use(nginx);
      await nginx.stop();
    },
    {scope: 'worker', timeout: 30_000},
  ],
  baseURL: async ({nginx}, use) => use(nginx.url),
});

const SEARCH_INDEX = `/${readdirSync(BUILD_DIR).find((name) => /^search-index-[0-9a-f]+\.json$/.test(name))}`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const writtenCsp = () => /set \$docs_csp "([^"]*)";/.exec(readFileSync(CSP_INCLUDE, 'utf8'))![1]!;
/** The hashed main script that `/` loads. */
const MAIN_JS = /src="?(\/assets\/js\/main\.[^"\s>]+\.js)/.exec(readFileSync(`${BUILD_DIR}/index.html`, 'utf8'))![1]!;

const get = (urlPath: string, extra = '', method = 'GET') =>
  `${method} ${urlPath} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;
const post = (urlPath: string, body: string, extra = '', type = 'text/plain') =>
  `POST ${urlPath} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`;
const postMcp = (body: string, extra = '', urlPath = '/mcp') => post(urlPath, body, extra, 'application/json');
const NO_STORE = {'cache-control': 'no-store'};
const headerOf = (answer: RawAnswer, name: string) => Object.fromEntries(answer.headers)[name];
const forwardedFrom = (nginx: Nginx, client: string) =>
  nginx.events.filter((event) => event.headers['x-forwarded-for'] === client);

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
const EVENT_HEADERS = ['server', 'date', 'content-type', 'content-length', 'connection', ...Object.keys(EVERY_ANSWER)];

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

test.describe('nginx: pages', {tag: '@viewport-independent'}, () => {
  const pages = docPages();
  for (const doc of pages) {
    test(`${doc.path} answers 200 with "${doc.title}" and hydrates`, async ({page}) => {
      expect((await openPage(page, doc.path))?.status()).toBe(200);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
    });
  }

  test('.html, /index.html and trailing-slash forms are 301-redirected to the canonical path (query kept), never off the site; a browser follows one, navigates client-side after hydration, and its search box finds a page', async ({
    page,
    request,
    nginx,
  }) => {
    const quickStart = '/getting-started/quick-start';
    for (const [variant, canonical] of [
      ...['.html', '/index.html', '/'].map((form) => [`${quickStart}${form}`, quickStart]),
      ['/index.html', '/'],
      ['/basics/sdk.html?tab=npm', '/basics/sdk?tab=npm'],
    ] as const) {
      const response = await request.get(variant, {maxRedirects: 0});
      expect(response.status(), variant).toBe(301);
      expect(response.headers()['location'], variant).toBe(canonical);
    }
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
    await openPage(page, '/basics/sdk.html?tab=npm');
    const {pathname, search} = new URL(page.url());
    expect(pathname + search, 'the redirect followed').toBe('/basics/sdk?tab=npm');
    // A page of another category than the SDK page.
    const target = pages.find((doc) => doc.path === '/getting-started/quick-start')!;
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: target.title, exact: true}).click();
    await expect(page, 'client-side navigation').toHaveURL(target.path);
    await expect(page.getByRole('heading', {level: 1})).toHaveText(target.title);
    await waitForSearchReady(page);
    await searchInput(page).fill('access token');
    await expect(searchListbox(page).getByRole('option').first(), 'a search result').toBeVisible();
    await searchInput(page).press('Enter');
    await expect(page, 'the search result opened').not.toHaveURL(new RegExp(`${target.path}$`));
    await expect(page.getByRole('heading', {level: 1})).toBeVisible();
  });
});

test.describe('nginx: not found', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: /Failed to load resource: the server responded with a status of 404/});

  // One not-found page for every path (the browser shows it, under the CSP, once); each path is checked over HTTP.
  test('every unknown, hidden or reserved path answers 404 with the not-found page; one climbing out of the site, sent raw, is refused', async ({
    page,
    request,
    nginx,
  }) => {
    expect((await openPage(page, '/no/such/page'))?.status(), 'in the browser').toBe(404);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Page Not Found');
    const notFoundPage = readFileSync(path.join(BUILD_DIR, '404.html'), 'utf8');
    expect(existsSync(path.join(BUILD_DIR, '_headers')), 'build/_headers exists').toBe(true);
    const hidden = ['/.nginx/csp.conf', '/_headers', '/_headers.gz', '/_headers.br'];
    for (const unknown of ['/404', '/404.html', `/${'a'.repeat(1500)}`, '/getting-started', ...hidden]) {
      const response = await request.get(unknown, {maxRedirects: 0});
      expect(response.status(), unknown.slice(0, 40)).toBe(404);
      expect(await response.text(), unknown.slice(0, 40)).toBe(notFoundPage);
    }
    // Sent raw (a browser resolves dot segments first), more levels than any root has: following them reaches /etc/passwd.
    const up = 32;
    for (const climb of [
      `${'/..'.repeat(up)}/etc/passwd`,
      `${'/%2e%2e'.repeat(up)}/etc/passwd`,
      `/assets/${'..%2f'.repeat(up)}etc/passwd`,
    ]) {
      const answer = await rawExchange(nginx.url, get(climb));
      expect([400, 404], climb.slice(0, 40)).toContain(answer.status);
      expect(answer.body, `${climb.slice(0, 40)}: no file outside the site`).not.toMatch(/^root:[^:]*:\d+:\d+:/m);
    }
  });
});

test.describe('nginx: headers', {tag: '@viewport-independent'}, () => {
  // Whether the hashes cover every inline script: Chromium logs each CSP violation as a console error, which fails
  // every test here that opens a page (tests/support/fixtures.ts).
  test('the CSP this build wrote: script hashes, no unsafe script sources', () => {
    const header = writtenCsp(); // what every answer sends (expectAnswer)
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
  test('cache: hashed assets immutable for a year; everything else revalidated (304s below)', async ({request}) => {
    const html = await (await request.get('/')).text();
    const hashed = [...html.matchAll(/(?:src|href)="?(\/assets\/[^"\s>]+)/g)].map((m) => m[1]!);
    expect(hashed.length).toBeGreaterThan(2);
    for (const path of hashed.slice(0, 4))
      expect((await request.get(path)).headers()['cache-control'], path).toBe(IMMUTABLE);
    for (const path of ['/', '/basics/sdk', SEARCH_INDEX, '/sitemap.xml', '/img/social-card.png', '/no/such/page'])
      expect((await request.get(path)).headers()['cache-control'], path).toBe('no-cache');
  });

  // Brotli when the modules are installed.
  test("compression: the build's .gz and .br twins are sent as they are", async ({request, nginx}) => {
    for (const url of ['/', '/basics/sdk', MAIN_JS, SEARCH_INDEX, '/sitemap.xml', '/openapi.yaml', '/llms-full.txt']) {
      const file = {'/': 'index.html', '/basics/sdk': 'basics/sdk.html'}[url] ?? url;
      // The twin's exact size: nginx sent the file, it did not compress per request.
      for (const accept of ['gzip', 'br, gzip']) {
        const [encoding, extension] = accept === 'gzip' || !nginx.brotli ? ['gzip', '.gz'] : ['br', '.br'];
        const answer = await request.get(url, {headers: {'Accept-Encoding': accept}});
        expect(answer.headers()['content-encoding'], `${url} for ${accept}`).toBe(encoding);
        expect(answer.headers()['vary'], `${url} for ${accept}`).toMatch(/Accept-Encoding/i);
        const twin = statSync(path.join(BUILD_DIR, `${file}${extension}`)).size;
        expect(Number(answer.headers()['content-length']), `${url}: the ${extension} twin`).toBe(twin);
        expect(await answer.text(), `${url} decoded`).toBe(readFileSync(path.join(BUILD_DIR, file), 'utf8'));
      }
    }
    const identity = await request.get('/', {headers: {'Accept-Encoding': 'identity'}});
    expect(identity.headers()['content-encoding']).toBeUndefined();
  });

  test('content types: .md, .txt, .yaml, .xml and pages', async ({request}) => {
    for (const [url, type] of [
      ['/index.md', 'text/markdown; charset=utf-8'],
      ['/llms.txt', 'text/plain; charset=utf-8'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/openapi.yaml', 'application/yaml'],
      ['/sitemap.xml', 'text/xml; charset=utf-8'],
      ['/', 'text/html; charset=utf-8'],
    ])
      expect((await request.get(url!)).headers()['content-type'], url).toBe(type);
  });

  test('200, 202, 204, 301, 304, 400, 404, 405, 412, 413, 414, 416, 501, 502 and 505 each carry every security header once, those for /mcp never stored; errors under /assets/ never cached as the asset; nginx -t and the error log clean', async ({
    nginx,
  }) => {
    // Revalidated as a browser asks: the precompressed twin's ETag, not the identity file's.
    const browser = 'Accept-Encoding: gzip, deflate, br\r\n';
    const etag = async (urlPath: string) => headerOf(await rawRequest(nginx.url, get(urlPath, browser)), 'etag');
    const cases: [number, string, string, Record<string, string>?][] = [
      [200, nginx.url, get('/')],
      [200, nginx.url, get('/basics/sdk')],
      [200, nginx.url, get('/sitemap.xml')],
      [200, nginx.url, get(MAIN_JS, 'Accept-Encoding: br, gzip\r\n')],
      // A Range on an asset gets the whole file (a 416 there would carry the 200's immutable header).
      [200, nginx.url, get(MAIN_JS, 'Range: bytes=99999999-\r\n'), {'cache-control': IMMUTABLE}],
      [204, nginx.urls.withoutCollector, post('/api/event', '{}')],
      [301, nginx.url, get('/basics/sdk.html')],
      [304, nginx.url, get('/', `${browser}If-None-Match: ${await etag('/')}\r\n`)],
      [304, nginx.url, get(SEARCH_INDEX, `${browser}If-None-Match: ${await etag(SEARCH_INDEX)}\r\n`)],
      [400, nginx.url, 'GET / HTTP/1.1\r\nHost: localhost\r\nHost: other\r\n\r\n'],
      [400, nginx.url, 'NONSENSE\r\n\r\n'],
      [404, nginx.url, get('/no/such/page')],
      [404, nginx.url, get('/assets/js/missing.0123abcd.js'), {'cache-control': 'no-cache'}],
      [405, nginx.url, post('/basics/sdk', '{}')],
      [405, nginx.url, get('/api/event')],
      [412, nginx.url, get(MAIN_JS, 'If-Match: "not-this-one"\r\n'), {'cache-control': 'no-cache'}],
      [413, nginx.url, post('/api/event', 'x'.repeat(5000))],
      [414, nginx.url, get(`/${'a'.repeat(10_000)}`)],
      [416, nginx.url, get('/sitemap.xml', 'Range: bytes=99999999-\r\n')],
      [501, nginx.url, 'POST /api/event HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n'],
      // A dead collector changes nothing for the visitor: nginx answers for it.
      [202, nginx.urls.dead, post('/api/event', '{}')],
      [505, nginx.url, 'GET / HTTP/3.0\r\nHost: localhost\r\n\r\n'],
      // What nginx answers for /mcp itself is never stored.
      [404, nginx.urls.withoutCollector, postMcp('{}'), NO_STORE],
      [405, nginx.url, get('/mcp'), NO_STORE],
      [413, nginx.url, postMcp('x'.repeat(70 * 1024)), NO_STORE],
      [502, nginx.urls.dead, postMcp('{}'), NO_STORE],
      // Nor what answers a request line nginx could not read, which may have been for /mcp.
      [414, nginx.url, `POST /mcp?${'a'.repeat(10_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, NO_STORE],
      [400, nginx.url, 'POST /mcp HTTP/1.1 x\r\nHost: localhost\r\n\r\n', NO_STORE],
      [505, nginx.url, 'POST /mcp HTTP/3.0\r\nHost: localhost\r\n\r\n', NO_STORE],
    ];
    for (const [status, url, request, expected] of cases) {
      const label = `${status} for ${request.split('\r\n')[0]!.slice(0, 60)}`;
      expectAnswer(await rawRequest(url, request), status, label, expected);
    }
    expect(nginx.errorLog()).not.toMatch(/uninitialized/);
    expect(nginx.configTest).toMatch(/test is successful/);
    expect(nginx.configTest).not.toMatch(/\[(?:warn|emerg|alert|crit|error)\]/);
  });

  test('a server block without the CSP include serves nothing (500) beside one with it; alone, nginx -t fails', async () => {
    const both = await startSites({guarded: {}, bare: {csp: false}});
    try {
      expect((await fetch(`${both.urls.guarded}/basics/sdk`)).status).toBe(200);
      for (const urlPath of ['/', '/basics/sdk', '/assets/', '/llms.txt']) {
        const answer = await fetch(`${both.urls.bare}${urlPath}`);
        expect(answer.status, urlPath).toBe(500);
        expect(await answer.text(), urlPath).not.toContain('<div id="__docusaurus">');
      }
    } finally {
      await both.stop();
    }
    await expect(startSites({bare: {csp: false}})).rejects.toThrow(/docs_csp/);
  });

  test('deploy/site.conf.example loads without a warning, serves the site over TLS and redirects plain HTTP to its own name, whatever the Host', async () => {
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
    expectAnswer(answer, 202, 'the 202', {...NO_STORE, 'content-length': '0'});
    // None of the collector's headers: only the allowed names, the site's own with their values (expectAnswer).
    expect(headersBeyond(answer, EVENT_HEADERS), answer.head).toEqual([]);
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

  test('an Upgrade request gets the 202, never a tunnel, even from a collector that answers 101', async ({nginx}) => {
    const upgrade =
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
    const request = `POST /api/event HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n${upgrade}\r\n{}`;
    const answer = await rawRequest(nginx.urls.upgrading, request);
    expect(answer.status).toBe(202);
    expect(answer.head).not.toMatch(/^HTTP\/1\.1 101|^Upgrade:/im);
  });

  test('an https collector with a self-signed certificate gets nothing; the visitor gets 202', async ({nginx}) => {
    const answer = await rawRequest(nginx.urls.untrusted, post('/api/event', '{"name":"pageview"}'));
    expect(answer.status).toBe(202);
    await expect.poll(() => nginx.errorLog()).toMatch(/upstream SSL certificate verify error/);
    expect(nginx.untrustedEvents).toEqual([]);
  });

  test('other methods get 405 (Allow: POST) whether or not a collector is set', async ({nginx}) => {
    for (const url of [nginx.url, nginx.urls.withoutCollector])
      for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
        const answer = await rawRequest(url, get('/api/event', '', method));
        expect(answer.status, `${method} ${url}`).toBe(405);
        expect(headerOf(answer, 'allow'), `${method} ${url}`).toBe('POST');
      }
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

  test('one client: after a burst of 20, 429 (every security header) and nothing more forwarded', async ({nginx}) => {
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

  test('slow clients get nothing forwarded: a stalled body dropped after the body timeout, a trickling body cut at 2 KiB, beyond 8 requests at a time 429', async ({
    nginx,
  }) => {
    // All at once, each from its own address (nginx's per-client limits count them apart).
    const stalled = openSlowPost(nginx.url, '127.0.0.8');
    const trickling = openSlowPost(nginx.url, '127.0.0.9', 'Transfer-Encoding: chunked\r\n\r\n');
    // Ten slow requests: headers sent, body promised but never sent, so each holds its place.
    const crowd = Array.from({length: 10}, () => openSlowPost(nginx.url, '127.0.0.7'));
    // A chunk each quarter second, well inside the body timeout: only the size limit can end it.
    const piece = 'x'.repeat(128);
    let sent = 0;
    const trickle = setInterval(() => {
      if (trickling.socket.destroyed) return;
      trickling.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      sent += piece.length;
    }, 250);
    try {
      const answered = () => crowd.filter(({state}) => state.received);
      await expect.poll(() => answered().length, 'requests beyond 8 at a time answered').toBe(2);
      for (const {state} of answered()) expect(state.received, 'beyond 8 at a time').toMatch(/^HTTP\/1\.1 429 /);
      for (const {socket} of crowd) socket.destroy();
      // nginx ends the stalled connection itself (client_body_timeout on this path, then a reset: reset_timedout_connection).
      await stalled.closed;
      const {received, reset} = stalled.state;
      expect(reset || received.startsWith('HTTP/1.1 408 '), `stalled: reset or 408; received: ${received}`).toBe(true);
      await trickling.closed;
      // Cut by size (413), or by a pause if the machine stalled the trickle: never more than 2 KiB read.
      const cut = trickling.state.received;
      expect(cut === '' || /^HTTP\/1\.1 (?:413|408) /.test(cut), `trickling: ${cut}`).toBe(true);
      expect(sent, 'trickled bytes').toBeLessThanOrEqual(2048 + piece.length);
    } finally {
      // The worker's nginx serves the next tests: no connection of this one stays open, even after a failure.
      clearInterval(trickle);
      for (const {socket} of [...crowd, stalled, trickling]) socket.destroy();
    }
    for (const client of ['127.0.0.7', '127.0.0.8', '127.0.0.9'])
      expect(forwardedFrom(nginx, client), `forwarded from ${client}`).toEqual([]);
  });

  test("a slow collector never delays the visitor's next request: the event's connection closes", async ({nginx}) => {
    // A browser's connection pool: one connection, kept alive when the server allows it.
    const agent = new http.Agent({keepAlive: true, maxSockets: 1});
    const send = (method: string, urlPath: string, body?: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = http.request(`${nginx.urls.slow}${urlPath}`, {method, agent}, (response) =>
          response.resume().on('end', () => resolve(response)),
        );
        request.on('error', reject).end(body);
      });
    try {
      const event = await send('POST', '/api/event', '{"name":"pageview"}');
      expect(event.statusCode).toBe(202);
      expect(event.headers['connection']).toBe('close');
      await expect.poll(() => slowHeld.length, 'the event held at the collector').toBe(1);
      expect((await send('GET', '/basics/sdk')).statusCode).toBe(200);
      // The page was answered while the collector held the event; nginx then still takes the collector's answer.
      for (const response of slowHeld.splice(0)) response.writeHead(202).end();
      const outcomes = await Promise.all(slowOutcomes.splice(0));
      expect(outcomes, 'the held event, once the page was answered').toEqual(['collector answered']);
    } finally {
      for (const response of slowHeld.splice(0)) response.writeHead(202).end();
      agent.destroy();
    }
  });
});

/** The headers an answer from /mcp may carry: HTTP's own, the JSON body's (Vary: nginx's compression) and the site's. */
const MCP_HEADERS = [...EVENT_HEADERS, 'transfer-encoding', 'vary'];

test.describe('nginx: /mcp', {tag: '@viewport-independent'}, () => {
  test("the upstream's answer: allow-listed headers, the site's own once, no X-Accel-* obeyed", async ({nginx}) => {
    for (const status of [200, 400, 403, 500]) {
      const answer = await rawExchange(nginx.url, postMcp(`{"status":${status}}`));
      const label = `an upstream ${status}`;
      expect(answer.body, `${label}: the upstream's body, at full speed, not an internal page`).toBe(UPSTREAM_BODY);
      expectAnswer(answer, status, label, {...NO_STORE, 'content-type': 'application/json'});
      expect([undefined, 'Accept-Encoding'], label).toContain(headerOf(answer, 'vary'));
      expect(headersBeyond(answer, MCP_HEADERS), `${label}\n${answer.head}`).toEqual([]);
    }
  });

  test('the request: an allow-list of headers, with Origin when the client sent one', async ({nginx}) => {
    nginx.mcpSeen.length = 0;
    const identity = 'Cookie: session=secret\r\nAuthorization: Bearer secret\r\nAccept: application/json\r\n';
    await rawExchange(nginx.url, postMcp('{"n":1}', `Origin: https://evil.example\r\n${identity}`));
    await rawExchange(nginx.url, postMcp('{"n":2}'));
    const [withOrigin, without] = nginx.mcpSeen.map(({headers}) => headers);
    expect(Object.keys(withOrigin!).sort()).toEqual(
      ['accept', 'connection', 'content-length', 'content-type', 'host', 'origin', 'x-forwarded-for'].sort(),
    );
    expect(withOrigin!.origin).toBe('https://evil.example');
    expect(without!.origin).toBeUndefined();
  });

  test('every upgrade form (400, never stored) and every other spelling nginx maps to /mcp (404) is refused before the upstream sees it; an empty Upgrade is never forwarded', async ({
    nginx,
  }) => {
    nginx.mcpSeen.length = 0;
    for (const upgrade of [
      'Upgrade: websocket\r\nConnection: Upgrade\r\n',
      'Upgrade: websocket\r\n',
      'Upgrade: 0\r\n',
      'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n',
      'Connection: upgrade\r\n',
      'Connection: keep-alive, Upgrade\r\n',
    ])
      expectAnswer(await rawExchange(nginx.url, postMcp('{}', upgrade)), 400, upgrade, NO_STORE);
    for (const spelling of ['//mcp', '/./mcp', '/%6dcp', '/x/../mcp'])
      expectAnswer(await rawExchange(nginx.url, postMcp('{}', '', spelling)), 404, spelling);
    expect(nginx.mcpSeen).toEqual([]);
    // nginx's variables cannot tell an empty Upgrade from none: it reaches the server, without the header.
    await rawExchange(nginx.url, postMcp('{}', 'Upgrade:\r\n'));
    expect(nginx.mcpSeen.map(({headers}) => [headers.upgrade, headers.connection])).toEqual([[undefined, 'close']]);
  });

  // Its 400 (above), 404, 405, 413 and 502: with every other status nginx sends.
  test('a 429 nginx makes for /mcp is never stored', async ({nginx}) => {
    let limited: RawAnswer | undefined;
    for (let i = 0; i < 100 && !limited; i++) {
      const answer = await rawRequest(nginx.url, postMcp('{}'), {localAddress: '127.0.0.10'});
      if (answer.status === 429) limited = answer;
    }
    expect(limited, 'a 429 within 100 quick calls').toBeDefined();
    expectAnswer(limited!, 429, '429', NO_STORE);
  });
});
