import type {Page} from '@playwright/test';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

const toggleName = /Switch between dark and light mode/;

/** Clicks the colour-mode toggle (in the menu on a phone) and expects the mode it switches to. */
async function switchTo(page: Page, isMobile: boolean, mode: 'light' | 'dark'): Promise<void> {
  if (isMobile) await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
  const toggle = page.getByRole('button', {name: toggleName});
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
}

test.describe('colour mode (spec §4)', () => {
  test('is light by default, ignoring a dark system preference; the toggle switches to dark, the choice is stored and survives a reload', async ({
    page,
    isMobile,
  }) => {
    await page.emulateMedia({colorScheme: 'dark'});
    await openPage(page, '/basics/sdk');
    await expect(page.locator('html'), 'the default').toHaveAttribute('data-theme', 'light');
    const stored = () => page.evaluate(() => window.localStorage.getItem('theme'));
    await switchTo(page, isMobile, 'dark');
    expect(await stored()).toBe('dark');
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator('html'), 'after a reload').toHaveAttribute('data-theme', 'dark');
    await switchTo(page, isMobile, 'light');
    expect(await stored()).toBe('light');
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

  const BROKEN_STORAGE = {
    garbage: () => window.localStorage.setItem('theme', '{"not":"a theme"}<script>'),
    blocked: () => {
      const blocked = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
      Object.defineProperty(window, 'localStorage', {configurable: true, get: blocked});
      Object.defineProperty(window, 'sessionStorage', {configurable: true, get: blocked});
    },
  };
  for (const [storage, script] of Object.entries(BROKEN_STORAGE)) {
    test(`${storage} local storage still renders light mode without errors`, async ({page, isMobile}) => {
      await page.addInitScript(script);
      await openPage(page, '/getting-started/authentication');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Authentication');
      await switchTo(page, isMobile, 'dark');
    });
  }
});
