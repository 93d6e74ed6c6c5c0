import {expect, openPage, test} from './support/fixtures';

// Docusaurus prefetches the chunks of the pages that links in view lead to, so moving on from a page loads no
// script over the network; each file once. The desktop sidebar brings every page's link into view (a phone's
// sidebar is in its closed menu).
test('a sidebar link has its page chunks prefetched before it is followed', {tag: '@desktop-only'}, async ({page}) => {
  await openPage(page, '/');
  const prefetchLinks = page.locator('link[rel="prefetch"][href*="/assets/js/"]');
  await expect.poll(() => prefetchLinks.count(), 'chunks prefetched for the links in view').toBeGreaterThan(5);
  const billing = page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Billing', exact: true});
  // Every link in view asks for its chunks in the same observer task; wait for those requests to end.
  await page.waitForLoadState('networkidle');
  const prefetchedUrls = await prefetchLinks.evaluateAll((links) =>
    links.map((link) => (link as HTMLLinkElement).href),
  );
  const prefetched = new Set(prefetchedUrls);
  // Routes share chunks (their layouts'); each file is asked for once (plugins/bundle/prefetch-once.ts).
  expect(prefetchedUrls.length, 'prefetch links, one per file').toBe(prefetched.size);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().includes('/assets/js/')) scripts.push(request.url());
  });
  await billing.click();
  await expect(page).toHaveURL('/account-management/billing');
  await expect(page.getByRole('heading', {level: 1, name: 'Billing'})).toBeVisible();
  expect(scripts.length, 'the new page needed chunks').toBeGreaterThan(0);
  expect(
    scripts.filter((url) => !prefetched.has(url)),
    'chunks the new page loaded without a prefetch',
  ).toEqual([]);
});
