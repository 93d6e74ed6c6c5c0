import {readFileSync} from 'node:fs';
import path from 'node:path';
import {SITE} from '../src/constants/site';
import {builtSidebar, docRoutes, htmlFile} from './support/docs';
import {expect, openPage, test} from './support/fixtures';

const BUILD_DIR = path.resolve(__dirname, '../build');
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

  test('robots.txt allows crawling and points to the sitemap', async ({request}) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow:$/m);
    expect(text).toContain(`Sitemap: ${SITE.url}/sitemap.xml`);
  });

  // In the browser, after hydration: the head the page ends with, not only the one the server sent.
  for (const route of docRoutes()) {
    test(`${route}: title, description, canonical, Open Graph, Twitter, lang and dir`, async ({page}) => {
      await openPage(page, route);
      const head = await page.evaluate(() => {
        const meta = (selector: string) => document.head.querySelector(selector)?.getAttribute('content') ?? null;
        return {
          title: document.title,
          lang: document.documentElement.getAttribute('lang'),
          dir: document.documentElement.getAttribute('dir'),
          description: meta('meta[name="description"]'),
          canonical:
            document.head.querySelectorAll('link[rel="canonical"]').length === 1
              ? (document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null)
              : 'not exactly one',
          ogTitle: meta('meta[property="og:title"]'),
          ogDescription: meta('meta[property="og:description"]'),
          ogUrl: meta('meta[property="og:url"]'),
          ogImage: meta('meta[property="og:image"]'),
          twitterCard: meta('meta[name="twitter:card"]'),
          twitterImage: meta('meta[name="twitter:image"]'),
          robots: meta('meta[name="robots"]'),
        };
      });
      expect(head.lang).toBe('en');
      expect(head.dir).toBe('ltr');
      expect(head.canonical).toBe(absolute(route));
      expect(head.ogUrl).toBe(absolute(route));
      expect(head.ogTitle).toBe(head.title);
      expect(head.description?.length ?? 0).toBeGreaterThan(50);
      expect(head.ogDescription).toBe(head.description);
      expect(head.ogImage).toBe(`${SITE.url}/img/social-card.png`);
      expect(head.twitterImage).toBe(head.ogImage);
      expect(head.twitterCard).toBe('summary_large_image');
      expect(head.robots).toBeNull();
    });
  }

  test('no two pages share a title or a description', () => {
    const heads = docRoutes().map((route) => {
      const html = readFileSync(htmlFile(route), 'utf8');
      return {
        title: /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1],
        description: /<meta[^>]*name="?description"?[^>]*content="([^"]*)"/.exec(html)?.[1],
      };
    });
    expect(heads.every(({title, description}) => title && description)).toBe(true);
    expect(new Set(heads.map(({title}) => title)).size).toBe(heads.length);
    expect(new Set(heads.map(({description}) => description)).size).toBe(heads.length);
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
