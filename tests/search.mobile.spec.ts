import {SEARCH} from '../src/constants/site';
import {expect, openPage, test} from './support/fixtures';
import {searchInput, searchListbox, waitForSearchReady} from './support/search';

// The `mobile` project (Pixel 7, 412 px): spec §2 "mobile layout up to 996 px".
test.describe('search box at phone width', () => {
  test('sits in the navbar, and a tap, a query and a tap on a result navigate there', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    await waitForSearchReady(page);
    const input = searchInput(page);
    await expect(page.locator('nav.navbar').locator(input)).toBeVisible();
    await expect(input).toHaveAttribute('placeholder', SEARCH.placeholder);
    await input.tap();
    await expect(input).toBeFocused();
    await input.fill('refund');
    const listbox = searchListbox(page);
    const option = listbox.getByRole('option').first();
    await expect(option).toBeVisible();
    // The results fit the screen.
    const box = await listbox.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
    await option.tap();
    await expect(page).toHaveURL(/\/account-management\/billing\?_highlight=refund/);
    await expect(page.locator('article mark').first()).toBeVisible();
  });

  test('is disabled and reads Loading... until its index arrives', async ({page}) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let delivered = false;
    await page.route('**/search-index*.json', async (route) => {
      await held;
      await route.continue();
      delivered = true;
    });
    const indexRequested = page.waitForRequest('**/search-index*.json');
    await openPage(page, '/basics/sdk');
    await indexRequested;
    await expect(searchInput(page)).toBeDisabled();
    await expect(searchInput(page)).toHaveAttribute('placeholder', SEARCH.loadingText);
    // Everything the page had queued runs (two idle periods and a frame) while the index is held.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(() => requestAnimationFrame(() => resolve(null))))));
    expect(delivered).toBe(false);
    await expect(searchInput(page)).toBeDisabled();
    await expect(searchInput(page)).toHaveAttribute('placeholder', SEARCH.loadingText);
    release();
    await waitForSearchReady(page);
    await expect(searchInput(page)).toBeEnabled();
  });

  test.describe('at the 996 px breakpoint', () => {
    test.use({viewport: {width: 996, height: 800}});

    test('the box is usable from the mobile navbar', async ({page}) => {
      await openPage(page, '/');
      await expect(page.locator('.navbar__toggle')).toBeVisible();
      await waitForSearchReady(page);
      await searchInput(page).tap();
      await page.keyboard.type('postman');
      await expect(searchListbox(page).getByRole('option').first()).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/_highlight=postman/);
    });
  });
});
