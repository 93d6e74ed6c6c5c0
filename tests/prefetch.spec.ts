import type {Page} from '@playwright/test';

import {expect, openPage, test} from './support/fixtures';

/** Runs the idle callbacks held so far (as an idle browser would); returns how many ran. */
function runHeldIdleCallbacks(page: Page): Promise<number> {
  return page.evaluate(() => {
    const held = (window as unknown as {heldIdleCallbacks: IdleRequestCallback[]}).heldIdleCallbacks;
    const batch = held.splice(0);
    for (const callback of batch) callback({didTimeout: false, timeRemaining: () => 50});
    return batch.length;
  });
}

// src/client/idle-prefetch.ts: links that come into view still prefetch their pages' chunks, but in
// idle callbacks, one page per callback, instead of inside the IntersectionObserver callback.
// These count the links the desktop sidebar brings into view (a phone's sidebar is in its closed menu).
test.describe('link prefetching', {tag: '@desktop-only'}, () => {
  test.beforeEach(async ({page}) => {
    // Hold idle callbacks until the test releases them.
    await page.addInitScript(() => {
      const held: IdleRequestCallback[] = [];
      Object.assign(window, {heldIdleCallbacks: held});
      window.requestIdleCallback = (callback) => held.push(callback);
    });
  });

  const prefetchLinks = 'link[rel="prefetch"][href*="/assets/js/"]';

  test('links in view prefetch their pages in idle time, one page per idle callback', async ({page}) => {
    await openPage(page, '/');
    // IntersectionObserver delivers to every observer in one task, in creation order: once this
    // observer (made after hydration) has been called, every Link's observer has been too.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const observer = new IntersectionObserver(() => {
            observer.disconnect();
            resolve();
          });
          observer.observe(document.querySelector('nav[aria-label="Docs sidebar"] a')!);
        }),
    );
    await expect(page.locator(prefetchLinks)).toHaveCount(0);

    const counts: number[] = [];
    for (let round = 0; round < 100 && (await runHeldIdleCallbacks(page)) > 0; round += 1) {
      counts.push(await page.locator(prefetchLinks).count());
    }
    // The sidebar in view links every page: they were prefetched over several idle callbacks.
    expect(counts.at(-1)).toBeGreaterThan(5);
    expect(new Set(counts.filter((count) => count > 0)).size).toBeGreaterThan(3);
  });

  test('idle prefetching fetches the chunks a sidebar link then needs', async ({page}) => {
    await openPage(page, '/');
    // Every idle callback, including those they queue.
    while ((await runHeldIdleCallbacks(page)) > 0);
    const prefetched = new Set(
      await page.locator(prefetchLinks).evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href)),
    );
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Billing', exact: true}).click();
    await expect(page).toHaveURL('/account-management/billing');
    await expect(page.getByRole('heading', {level: 1, name: 'Billing'})).toBeVisible();
    // Every chunk the new page loaded had been prefetched (so it comes from the prefetch cache).
    const pageScripts = scripts.filter((url) => url.includes('/assets/js/'));
    expect(pageScripts.length).toBeGreaterThan(0);
    expect(pageScripts.filter((url) => !prefetched.has(url))).toEqual([]);
  });
});
