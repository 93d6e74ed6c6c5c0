import {expect, openPage, test, waitForHydration} from './support/fixtures';

const toggleName = /Switch between dark and light mode/;

test.describe('colour mode (spec §4)', () => {
  test('is light by default and ignores a dark system preference', async ({browser}) => {
    const context = await browser.newContext({colorScheme: 'dark'});
    const page = await context.newPage();
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await context.close();
  });

  test('the toggle switches to dark, the choice is stored and survives a reload', async ({page}) => {
    await openPage(page, '/basics/sdk');
    const toggle = page.getByRole('button', {name: toggleName});
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('button', {name: toggleName}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');
  });

  test('the toggle is disabled until the client has mounted (server HTML)', async ({browser}) => {
    const context = await browser.newContext({javaScriptEnabled: false});
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', {name: toggleName})).toBeDisabled();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
    await context.close();
  });

  test('garbage in local storage still renders light mode without errors', async ({page}) => {
    await page.addInitScript(() => window.localStorage.setItem('theme', '{"not":"a theme"}<script>'));
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', {name: toggleName}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('blocked local storage still renders light mode without errors', async ({page}) => {
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
    await page.getByRole('button', {name: toggleName}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });
});
