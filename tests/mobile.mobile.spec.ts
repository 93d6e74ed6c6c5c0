import {expect, openPage, test} from './support/fixtures';

test.describe('mobile layout (≤ 996 px)', () => {
  test('the hamburger opens the sidebar menu, which locks page scrolling, and a doc link navigates', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    await expect(page.locator('nav[aria-label="Docs sidebar"]')).toBeHidden();
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const sidebar = page.locator('.navbar-sidebar');
    await expect(sidebar).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
    await sidebar.getByRole('link', {name: 'Billing', exact: true}).click();
    await expect(page).toHaveURL('/account-management/billing');
    await expect(sidebar).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
  });

  test('the sidebar menu marks the current page', async ({page}) => {
    await openPage(page, '/basics/iframe');
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const current = page.locator('.navbar-sidebar a[aria-current="page"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveText('Iframe');
  });

  test('the docs sidebar has a back-to-main-menu button that shows the navbar items', async ({page}) => {
    await openPage(page, '/basics/sdk');
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const back = page.getByRole('button', {name: /Back to main menu/});
    await expect(back).toBeVisible();
    await back.click();
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'Website'})).toBeVisible();
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'API Reference'})).toBeVisible();
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'Support'})).toBeVisible();
  });

  test('the open menu closes when the viewport becomes desktop width', async ({page}) => {
    await openPage(page, '/');
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    await page.setViewportSize({width: 1200, height: 800});
    await expect(page.locator('.navbar-sidebar')).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
    await expect(page.locator('nav[aria-label="Docs sidebar"]')).toBeVisible();
  });

  test('996 px is still mobile and 997 px is desktop', async ({page}) => {
    await page.setViewportSize({width: 996, height: 800});
    await openPage(page, '/');
    await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeVisible();
    await page.setViewportSize({width: 997, height: 800});
    await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeHidden();
  });

  test('an overflowing code block offers word wrap, which wraps it, and keeps its highlighting through a colour-mode switch', async ({
    page,
  }) => {
    await openPage(page, '/getting-started/quick-start');
    // The first shown block whose lines are wider than it, brought into view as a reader scrolls to it.
    const blocks = page.locator('.theme-code-block').filter({visible: true});
    const overflowing = await blocks.evaluateAll((elements) =>
      elements.findIndex((element) => {
        const pre = element.querySelector('pre')!;
        return pre.scrollWidth > pre.clientWidth;
      }),
    );
    expect(overflowing, 'a block of the page overflows a phone').toBeGreaterThanOrEqual(0);
    const block = blocks.nth(overflowing);
    await block.scrollIntoViewIfNeeded();
    const pre = block.locator('pre');
    const overflows = () => pre.evaluate((element) => element.scrollWidth > element.clientWidth);
    await block.getByRole('button', {name: 'Toggle word wrap'}).click();
    await expect(block.locator('code')).toHaveCSS('white-space', 'pre-wrap');
    expect(await overflows()).toBe(false);

    const tokenColours = () =>
      block
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
    await expect(block.locator('code')).toHaveCSS('white-space', 'pre-wrap');
  });

  test('a code block in a tab that was hidden gets its word-wrap toggle when the tab is shown', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    const tabs = page.locator('.tabs-container').first();
    const python = tabs.locator('[role=tabpanel]').filter({has: page.locator('pre.language-python')});
    await expect(python).toBeHidden();
    await tabs.getByRole('tab', {name: 'Python'}).click();
    await expect(python).toBeVisible();
    const pre = python.locator('pre');
    // Shown where the reader is: the toggle comes as the block is seen.
    await expect(pre).toBeInViewport();
    expect(
      await pre.evaluate((element) => element.scrollWidth > element.clientWidth),
      'this sample overflows a phone',
    ).toBe(true);
    await expect(python.getByRole('button', {name: 'Toggle word wrap'})).toBeVisible();
  });

  // Each page's title without sideways scrolling is checked on the load tests/routes.spec.ts checks the page on.
});
