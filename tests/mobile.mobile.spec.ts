import {expect, openPage, test} from './support/fixtures';

test.describe('mobile layout (≤ 996 px)', () => {
  test('the hamburger opens the sidebar menu, which marks the current page and locks page scrolling; a doc link navigates and closes it; its back-to-main-menu button shows the navbar items', async ({
    page,
  }) => {
    await openPage(page, '/basics/iframe');
    await expect(page.locator('nav[aria-label="Docs sidebar"]')).toBeHidden();
    const hamburger = page.getByRole('button', {name: 'Toggle navigation bar'});
    const menu = page.locator('.navbar-sidebar');
    const scrolling = () => page.evaluate(() => getComputedStyle(document.body).overflow);
    await hamburger.click();
    await expect(menu).toBeVisible();
    const current = menu.locator('a[aria-current="page"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveText('Iframe');
    expect(await scrolling(), 'page scrolling while the menu is open').toBe('hidden');
    await menu.getByRole('link', {name: 'Billing', exact: true}).click();
    await expect(page).toHaveURL('/account-management/billing');
    await expect(menu).toBeHidden();
    expect(await scrolling(), 'page scrolling once it closed').not.toBe('hidden');

    await hamburger.click();
    const back = page.getByRole('button', {name: /Back to main menu/});
    await expect(back).toBeVisible();
    await back.click();
    for (const name of ['Website', 'API Reference', 'Support']) {
      await expect(menu.getByRole('link', {name})).toBeVisible();
    }
  });

  test('996 px is still mobile and 997 px is desktop, which closes the open menu', async ({page}) => {
    await page.setViewportSize({width: 996, height: 800});
    await openPage(page, '/');
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    await page.setViewportSize({width: 997, height: 800});
    await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeHidden();
    await expect(page.locator('.navbar-sidebar')).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    await expect(page.locator('nav[aria-label="Docs sidebar"]')).toBeVisible();
  });

  test('a code block in a tab that was hidden gets its word-wrap toggle when the tab is shown; word wrap wraps an overflowing block, which keeps its highlighting through a colour-mode switch', async ({
    page,
  }) => {
    await openPage(page, '/getting-started/quick-start');
    const tabs = page.locator('.tabs-container').first();
    const python = tabs.locator('[role=tabpanel]').filter({has: page.locator('pre.language-python')});
    await expect(python).toBeHidden();
    await tabs.getByRole('tab', {name: 'Python'}).click();
    await expect(python).toBeVisible();
    const [pre, code] = [python.locator('pre'), python.locator('pre code')];
    const wrapToggle = python.getByRole('button', {name: 'Toggle word wrap'});
    const overflows = () => pre.evaluate((element) => element.scrollWidth > element.clientWidth);
    // Shown where the reader is: the toggle comes as the block is seen.
    await expect(pre).toBeInViewport();
    expect(await overflows(), 'this sample overflows a phone').toBe(true);
    await expect(wrapToggle).toBeVisible();

    // Word wrap on that block: it wraps, and stays wrapped through a colour-mode switch.
    await wrapToggle.click();
    await expect(code).toHaveCSS('white-space', 'pre-wrap');
    expect(await overflows(), 'the wrapped block overflows').toBe(false);
    const tokenColours = () =>
      pre
        .locator('.token:not(.plain)')
        .evaluateAll((tokens) => tokens.slice(0, 20).map((token) => getComputedStyle(token).color));
    const before = await tokenColours();
    expect(before.length).toBeGreaterThan(0);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await page
      .locator('.navbar-sidebar')
      .getByRole('button', {name: /Switch between dark and light mode/})
      .click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // vsDark in both modes: the same colours, and the tokens are still there and coloured.
    expect(await tokenColours()).toEqual(before);
    await expect(code).toHaveCSS('white-space', 'pre-wrap');
  });

  // Each page's title without sideways scrolling is checked on the load tests/routes.spec.ts checks the page on.
});
