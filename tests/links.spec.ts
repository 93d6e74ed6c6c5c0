import {expect, test} from '@playwright/test';
import {check, LinkState} from 'linkinator';

import {baseURL} from '../playwright.config';
import {docRoutes} from './support/docs';

// Link integrity: crawl the served build from every route, following internal
// links, anchors (#fragments) and assets; external links are not fetched. No browser: run once.
test('no broken internal link, anchor or asset in the served build', {tag: '@viewport-independent'}, async () => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL).origin;
  const routes = docRoutes();
  const result = await check({
    path: routes.map((route) => `${baseURL}${route}`),
    recurse: true,
    checkFragments: true,
    checkCss: true,
    concurrency: 8,
    timeout: 20_000,
    linksToSkip: async (link) => !link.startsWith(origin),
  });
  const checked = result.links.filter((link) => link.state !== LinkState.SKIPPED);
  const broken = result.links
    .filter((link) => link.state === LinkState.BROKEN)
    .map(
      (link) =>
        `${link.status ?? '-'} ${link.url} (on ${link.parent ?? '?'})${link.failureDetails?.length ? ` ${JSON.stringify(link.failureDetails).slice(0, 200)}` : ''}`,
    );
  expect(broken, 'broken links').toEqual([]);
  // The crawl really covered the site: every page, its assets and in-page anchors.
  const urls = new Set(checked.map((link) => link.url));
  for (const route of routes) {
    expect(urls, route).toContain(`${baseURL}${route}`);
  }
  expect(checked.some((link) => link.url.includes('/assets/'))).toBe(true);
});
