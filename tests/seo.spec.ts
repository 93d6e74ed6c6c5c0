import {readFileSync} from 'node:fs';
import path from 'node:path';
import {SITE} from '../src/constants/site';
import {BUILD_DIR, builtSidebar, docRoutes, htmlFile} from './support/docs';
import {expect, openPage, test} from './support/fixtures';

const absolute = (route: string) => `${SITE.url}${route}`;

// What the server sends and the head of each page: the same at any width, run once.
test.describe('SEO', {tag: '@viewport-independent'}, () => {
  test('sitemap.xml lists exactly the docs of the sidebar as absolute URLs', async ({request}) => {
    const response = await request.get('/sitemap.xml');
    expect(response.status()).toBe(200);
    const locs = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const sidebarPaths = builtSidebar().flatMap((group) => group.pages.map((page) => page.path));
    expect([...locs].sort()).toEqual(sidebarPaths.map(absolute).sort());
  });

  // Browsers ask for /favicon.ico on documents with no icon link (the Markdown twins, llms.txt).
  test('/favicon.ico is an icon, so a twin opened in the browser logs no 404', async ({request}) => {
    const response = await request.get('/favicon.ico');
    expect(response.status()).toBe(200);
    expect((await response.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });

  // The not-found page answers every unknown path: a URL of its own in its head (canonical, og:url, hreflang) would
  // name /404.html to crawlers. A page keeps them.
  test('the not-found answer names no URL of its own; a page names its own', async ({request}) => {
    const ownUrls = (html: string) =>
      [...html.matchAll(/<link[^>]*\srel=["']?(canonical|alternate)\b[^>]*>|<meta[^>]*\sproperty=["']?og:url\b[^>]*>/g)]
        .map(([tag]) => tag)
        .filter((tag) => !/\srel=["']?alternate\b/.test(tag) || /\shreflang=/.test(tag));
    const notFound = await request.get('/no-such-page');
    expect(notFound.status()).toBe(404);
    const html = await notFound.text();
    expect(html).toContain('Page Not Found');
    expect(ownUrls(html)).toEqual([]);
    const url = absolute('/basics/sdk');
    const tags = ownUrls(await (await request.get('/basics/sdk')).text());
    for (const own of [`rel=canonical href=${url}>`, `property=og:url content=${url}>`, `href=${url} hreflang=en>`])
      expect(tags.filter((tag) => tag.endsWith(own)).length, own).toBe(1);
  });

  test('robots.txt allows crawling and points to the sitemap', async ({request}) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow:$/m);
    expect(text).toContain(`Sitemap: ${SITE.url}/sitemap.xml`);
  });

  // Each page's head after hydration is checked on the load tests/routes.spec.ts checks the page on.
  test('no two pages share a title or a description', () => {
    const htmls = docRoutes().map((route) => readFileSync(htmlFile(route), 'utf8'));
    for (const [what, pattern] of [
      ['title', /<title[^>]*>([^<]*)<\/title>/],
      ['description', /<meta[^>]*name="?description"?[^>]*content="([^"]*)"/],
    ] as const) {
      const values = htmls.map((html) => pattern.exec(html)?.[1]);
      expect(values.every(Boolean), `every page has a ${what}`).toBe(true);
      expect(new Set(values).size, `distinct ${what}s`).toBe(htmls.length);
    }
  });

  test('the social card is a real 1200×630 PNG, served', async ({request}) => {
    const response = await request.get('/img/social-card.png');
    expect(response.status()).toBe(200);
    const png = await response.body();
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // Width and height of the IHDR chunk: the size Open Graph and Twitter cards expect.
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    expect(png.length).toBeGreaterThan(10_000);
  });

  test('/search is a tool, not content: noindex and not in the sitemap', async ({page}) => {
    await openPage(page, '/search');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    expect(readFileSync(path.join(BUILD_DIR, 'sitemap.xml'), 'utf8')).not.toMatch(/\/search|crash-test|404/);
  });
});
