import type {Page} from '@playwright/test';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

const toggleName = /Switch between dark and light mode/;

/** Clicks the colour-mode toggle: in the navbar on a desktop, in the menu on a phone. */
async function clickToggle(page: Page, isMobile: boolean): Promise<void> {
  if (isMobile) {
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
  }
  const toggle = page.getByRole('button', {name: toggleName});
  await expect(toggle).toBeEnabled();
  await toggle.click();
}

test.describe('colour mode (spec §4)', () => {
  test(
    'is light by default and ignores a dark system preference',
    {tag: '@viewport-independent'},
    async ({browser}) => {
      const context = await browser.newContext({colorScheme: 'dark'});
      const page = await context.newPage();
      await openPage(page, '/');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      await context.close();
    },
  );

  test('the toggle switches to dark, the choice is stored and survives a reload', async ({page, isMobile}) => {
    await openPage(page, '/basics/sdk');
    await clickToggle(page, isMobile);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await clickToggle(page, isMobile);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');
  });

  // On a phone the toggle sits in the menu, which cannot open before the client has mounted.
  test(
    'the toggle is disabled until the client has mounted (server HTML)',
    {tag: '@desktop-only'},
    async ({browser}) => {
      const context = await browser.newContext({javaScriptEnabled: false});
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByRole('button', {name: toggleName})).toBeDisabled();
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
      await context.close();
    },
  );

  test('garbage in local storage still renders light mode without errors', async ({page, isMobile}) => {
    await page.addInitScript(() => window.localStorage.setItem('theme', '{"not":"a theme"}<script>'));
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await clickToggle(page, isMobile);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('blocked local storage still renders light mode without errors', async ({page, isMobile}) => {
    await page.addInitScript(() => {
      const blocked = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
      Object.defineProperty(window, 'localStorage', {configurable: true, get: blocked});
      Object.defineProperty(window, 'sessionStorage', {configurable: true, get: blocked});
    });
    await openPage(page, '/getting-started/authentication');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Authentication');
    await clickToggle(page, isMobile);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });
});
